#include "connection/passwordstore.h"

#ifdef DELAYQ_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

#include <QTimer>

namespace delayq::ui {

namespace {

#ifdef DELAYQ_HAVE_KEYCHAIN
const QString kService = QStringLiteral("delayq-admin");

PasswordStore::Result resultOf(const QKeychain::Job* job)
{
    switch (job->error()) {
    case QKeychain::NoError:
        return PasswordStore::Result::Done;
    case QKeychain::EntryNotFound:
        return PasswordStore::Result::NotFound;
    default:
        return PasswordStore::Result::Unavailable;
    }
}

// The job deletes itself once finished and has no parent: a store destroyed mid-job must not
// delete a job the keychain backend still calls back into. Connected with the store as
// context, a late answer is then simply dropped.
template <class JobType> JobType* newJob(const QString& key)
{
    auto* job = new JobType(kService);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}
#endif

} // namespace

PasswordStore::PasswordStore(QObject* parent) : QObject(parent) {}

bool PasswordStore::isBuiltIn()
{
#ifdef DELAYQ_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

void PasswordStore::read(const QString& key)
{
#ifdef DELAYQ_HAVE_KEYCHAIN
    auto* job = newJob<QKeychain::ReadPasswordJob>(key);
    connect(job, &QKeychain::Job::finished, this, [this, key, job] {
        const Result result = resultOf(job);
        emit passwordRead(key, result, result == Result::Done ? job->textData() : QString());
    });
    job->start();
#else
    QTimer::singleShot(0, this, [this, key] { emit passwordRead(key, Result::Unavailable, {}); });
#endif
}

void PasswordStore::write(const QString& key, const QString& password)
{
#ifdef DELAYQ_HAVE_KEYCHAIN
    auto* job = newJob<QKeychain::WritePasswordJob>(key);
    job->setTextData(password);
    connect(job, &QKeychain::Job::finished, this,
            [this, key, job] { emit passwordWritten(key, resultOf(job)); });
    job->start();
#else
    Q_UNUSED(password)
    QTimer::singleShot(0, this, [this, key] { emit passwordWritten(key, Result::Unavailable); });
#endif
}

void PasswordStore::remove(const QString& key)
{
#ifdef DELAYQ_HAVE_KEYCHAIN
    auto* job = newJob<QKeychain::DeletePasswordJob>(key);
    connect(job, &QKeychain::Job::finished, this,
            [this, key, job] { emit passwordRemoved(key, resultOf(job)); });
    job->start();
#else
    QTimer::singleShot(0, this, [this, key] { emit passwordRemoved(key, Result::Unavailable); });
#endif
}

} // namespace delayq::ui
