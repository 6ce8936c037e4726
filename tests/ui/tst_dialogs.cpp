#include "client/connectiontypes.h"
#include "client/tasktypes.h"
#include "connection/connectiondialog.h"
#include "connection/passwordstore.h"
#include "connection/tlsfields.h"
#include "connection/transportfields.h"
#include "find/findbar.h"
#include "tasks/pushdialog.h"
#include "tasks/rescheduledialog.h"
#include "widgets/fielderror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include <functional>

using namespace delayq::ui;

namespace {

// What pushDialogRefuses types into the dialog: by default a valid push.
struct PushForm
{
    QString queue = QStringLiteral("orders");
    QString payload = QStringLiteral("{\"a\":1}");
    bool requireJson = true;
    bool absolute = false;
    QString time = QStringLiteral("30s");
    QString id;
    QString backoff;
    QString dedup;
    QString debounce;
    int count = 1;
};

// A row of pushDialogRefuses_data: the valid form as change leaves it, the field whose error
// label must speak ("" = valid) and words it must hold.
void pushRow(const char* name, const QString& field, const QString& words,
             const std::function<void(PushForm&)>& change = {})
{
    PushForm f;
    if (change)
        change(f);
    QTest::newRow(name) << f.queue << f.payload << f.requireJson << f.absolute << f.time << f.id
                        << f.backoff << f.dedup << f.debounce << f.count << field << words;
}

} // namespace

// Dialogs refuse bad input with the reason next to the field, and stay open.
class TestDialogs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // No keychain answers here (a bus that is not there), as on a headless machine;
        // tst_passwordstore runs one.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/delayq-tst-dialogs/bus");
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dialogs"));
        QSettings().clear();
    }

    void pushDialogRefuses_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QString>("payload");
        QTest::addColumn<bool>("requireJson");
        QTest::addColumn<bool>("absolute");
        QTest::addColumn<QString>("time");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("backoff");
        QTest::addColumn<QString>("dedup");
        QTest::addColumn<QString>("debounce");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("field"); // which error label must speak; "" = valid
        QTest::addColumn<QString>("words");

        pushRow("valid", "", "");
        pushRow("bad json", "payload", "not valid JSON",
                [](PushForm& f) { f.payload = QStringLiteral("{\"a\":"); });
        pushRow("json, line and column", "payload", "line 2",
                [](PushForm& f) { f.payload = QStringLiteral("{\n  \"a\": x\n}"); });
        pushRow("plain text when JSON is not required", "", "", [](PushForm& f) {
            f.payload = QStringLiteral("{\"a\":");
            f.requireJson = false;
        });
        pushRow("empty queue", "queue", "empty", [](PushForm& f) { f.queue.clear(); });
        pushRow("queue with a space", "queue", "queue name",
                [](PushForm& f) { f.queue = QStringLiteral("my queue"); });
        pushRow("queue with braces", "queue", "queue name",
                [](PushForm& f) { f.queue = QStringLiteral("a{b}"); });
        pushRow("delay without unit", "time", "",
                [](PushForm& f) { f.time = QStringLiteral("30"); });
        pushRow("delay garbage", "time", "", [](PushForm& f) { f.time = QStringLiteral("soon"); });
        pushRow("negative delay", "time", "", [](PushForm& f) { f.time = QStringLiteral("-5s"); });
        pushRow("bad date", "time", "", [](PushForm& f) {
            f.absolute = true;
            f.time = QStringLiteral("2026-13-45 25:00");
        });
        pushRow("empty date", "time", "date and time", [](PushForm& f) {
            f.absolute = true;
            f.time.clear();
        });
        pushRow("good date", "", "", [](PushForm& f) {
            f.absolute = true;
            f.time = QStringLiteral("2030-01-02T03:04:05Z");
        });
        pushRow("id with a control character", "id", "", [](PushForm& f) {
            f.time = QStringLiteral("1s");
            f.id = QStringLiteral("a\tb");
        });
        pushRow("bad backoff", "backoff", "backoff", [](PushForm& f) {
            f.time = QStringLiteral("1s");
            f.backoff = QStringLiteral("5s,often");
        });
        // Keep (docs/design/keep.md), refused as the CLI refuses push --dedup and --debounce.
        pushRow("dedup window", "", "", [](PushForm& f) { f.dedup = QStringLiteral("1h"); });
        pushRow("dedup under 1s", "dedup", "at least 1s",
                [](PushForm& f) { f.dedup = QStringLiteral("500ms"); });
        pushRow("dedup garbage", "dedup", "",
                [](PushForm& f) { f.dedup = QStringLiteral("soon"); });
        pushRow("debounce with an id", "", "", [](PushForm& f) {
            f.id = QStringLiteral("remind-7");
            f.debounce = QStringLiteral("30m");
        });
        pushRow("debounce without an id", "debounce", "needs an id",
                [](PushForm& f) { f.debounce = QStringLiteral("30m"); });
        pushRow("debounce garbage", "debounce", "", [](PushForm& f) {
            f.id = QStringLiteral("remind-7");
            f.debounce = QStringLiteral("a while");
        });
        pushRow("debounce of copies", "debounce", "one task", [](PushForm& f) {
            f.id = QStringLiteral("remind-7");
            f.debounce = QStringLiteral("30m");
            f.count = 3;
        });
    }
    void pushDialogRefuses()
    {
        QFETCH(QString, queue);
        QFETCH(QString, payload);
        QFETCH(bool, requireJson);
        QFETCH(bool, absolute);
        QFETCH(QString, time);
        QFETCH(QString, id);
        QFETCH(QString, backoff);
        QFETCH(QString, dedup);
        QFETCH(QString, debounce);
        QFETCH(int, count);
        QFETCH(QString, field);
        QFETCH(QString, words);

        PushDialog dialog(queue);
        dialog.show();
        dialog.payloadEdit()->setPlainText(payload);
        dialog.requireJson()->setChecked(requireJson);
        (absolute ? dialog.atMode() : dialog.delayMode())->setChecked(true);
        (absolute ? dialog.atEdit() : dialog.delayEdit())->setText(time);
        dialog.idEdit()->setText(id);
        dialog.backoffEdit()->setText(backoff);
        dialog.dedupEdit()->setText(dedup);
        dialog.debounceEdit()->setText(debounce);
        dialog.countSpin()->setValue(count);
        dialog.accept();

        const QMap<QString, FieldError*> errors{
            {"queue", dialog.queueError()},      {"payload", dialog.payloadError()},
            {"time", dialog.timeError()},        {"id", dialog.idError()},
            {"backoff", dialog.backoffError()},  {"dedup", dialog.dedupError()},
            {"debounce", dialog.debounceError()}};
        for (auto it = errors.cbegin(); it != errors.cend(); ++it) {
            const bool expected = it.key() == field;
            QVERIFY2(it.value()->hasError() == expected,
                     qPrintable(it.key() + QStringLiteral(": ") + it.value()->text()));
            QCOMPARE(it.value()->isVisible(), expected);
        }
        if (field.isEmpty()) {
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QCOMPARE(dialog.spec().payload, payload.toUtf8());
        } else {
            QCOMPARE(dialog.result(), int(QDialog::Rejected));
            QVERIFY(dialog.isVisible());
            QVERIFY2(errors[field]->text().contains(words, Qt::CaseInsensitive),
                     qPrintable(errors[field]->text()));
            // The message is shown as typed, never as markup.
            QCOMPARE(errors[field]->textFormat(), Qt::PlainText);
        }
    }

    void pushDialogBuildsSpec()
    {
        PushDialog dialog(QStringLiteral("orders"));
        dialog.payloadEdit()->setPlainText(QStringLiteral("[1,2]"));
        dialog.atMode()->setChecked(true);
        dialog.atEdit()->setText(QStringLiteral("2030-01-02T03:04:05.250Z"));
        dialog.idEdit()->setText(QStringLiteral("job-7"));
        dialog.backoffEdit()->setText(QStringLiteral("exp:1s:5m"));
        QVERIFY(dialog.validate());
        const PushSpec spec = dialog.spec();
        QCOMPARE(spec.queue, QStringLiteral("orders"));
        QCOMPARE(spec.dueAtMs, QDateTime::fromString(QStringLiteral("2030-01-02T03:04:05.250Z"),
                                                     Qt::ISODateWithMs)
                                   .toMSecsSinceEpoch());
        QCOMPARE(spec.id, QStringLiteral("job-7"));
        QCOMPARE(spec.backoff, QStringLiteral("exp:1s:5m"));
    }

    // The dedup window and debounce reach the spec as PushRequest takes them (push --dedup,
    // --debounce, --debounce-payload); "move the payload too" means nothing without a max wait.
    void pushDialogKeepSpec_data()
    {
        QTest::addColumn<QString>("dedup");
        QTest::addColumn<QString>("debounce");
        QTest::addColumn<bool>("payloadToo");
        QTest::addColumn<qint64>("dedupMs");
        QTest::addColumn<qint64>("maxWaitMs");
        QTest::addColumn<bool>("debouncePayload");
        QTest::newRow("none") << ""
                              << "" << false << 0LL << 0LL << false;
        QTest::newRow("dedup 1h") << "1h"
                                  << "" << false << 3600000LL << 0LL << false;
        QTest::newRow("debounce 30m") << ""
                                      << "30m" << false << 0LL << 1800000LL << false;
        QTest::newRow("debounce, payload too") << ""
                                               << "30m" << true << 0LL << 1800000LL << true;
        QTest::newRow("both") << "2d"
                              << "1h30m" << true << 172800000LL << 5400000LL << true;
    }
    void pushDialogKeepSpec()
    {
        QFETCH(QString, dedup);
        QFETCH(QString, debounce);
        QFETCH(bool, payloadToo);
        PushDialog dialog(QStringLiteral("orders"));
        dialog.payloadEdit()->setPlainText(QStringLiteral("{}"));
        dialog.delayEdit()->setText(QStringLiteral("5m"));
        dialog.idEdit()->setText(QStringLiteral("remind-7"));
        QVERIFY(!dialog.debouncePayload()->isEnabled());
        dialog.dedupEdit()->setText(dedup);
        dialog.debounceEdit()->setText(debounce);
        QCOMPARE(dialog.debouncePayload()->isEnabled(), !debounce.isEmpty());
        dialog.debouncePayload()->setChecked(payloadToo);
        QVERIFY(dialog.validate());
        const PushSpec spec = dialog.spec();
        QTEST(spec.dedupMs, "dedupMs");
        QTEST(spec.debounceMaxWaitMs, "maxWaitMs");
        QTEST(spec.debouncePayload, "debouncePayload");
        // The two rows more still fit a 1024 x 700 screen.
        dialog.show();
        QVERIFY2(dialog.sizeHint().height() <= 700,
                 qPrintable(QString::number(dialog.sizeHint().height())));
        QVERIFY(dialog.height() <= 700);
    }

    void rescheduleDialog_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("dueAt");
        QTest::addColumn<qint64>("delay");
        QTest::newRow("in 10m") << "in"
                                << "10m" << true << qint64(-1) << qint64(600000);
        QTest::newRow("leading in") << "in"
                                    << "in 2h" << true << qint64(-1) << qint64(7200000);
        QTest::newRow("empty delay") << "in"
                                     << "" << false << qint64(-1) << qint64(0);
        QTest::newRow("in garbage") << "in"
                                    << "later" << false << qint64(-1) << qint64(0);
        QTest::newRow("in bare number") << "in"
                                        << "10" << false << qint64(-1) << qint64(0);
        QTest::newRow("at utc") << "at"
                                << "2030-01-01T00:00:00Z" << true << qint64(1893456000000)
                                << qint64(0);
        QTest::newRow("at bad") << "at"
                                << "tomorrow-ish" << false << qint64(-1) << qint64(0);
        QTest::newRow("at empty") << "at"
                                  << "" << false << qint64(-1) << qint64(0);
        QTest::newRow("now") << "now"
                             << "" << true << qint64(-1) << qint64(0);
    }
    void rescheduleDialog()
    {
        QFETCH(QString, mode);
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, dueAt);
        QFETCH(qint64, delay);
        RescheduleDialog dialog(QList<TaskRow>(3));
        dialog.show();
        if (mode == QLatin1String("in")) {
            dialog.inMode()->setChecked(true);
            dialog.delayEdit()->setText(text);
        } else if (mode == QLatin1String("at")) {
            dialog.atMode()->setChecked(true);
            dialog.atEdit()->setText(text);
        } else {
            dialog.nowMode()->setChecked(true);
        }
        dialog.accept();
        QCOMPARE(dialog.result() == QDialog::Accepted, valid);
        QCOMPARE(dialog.timeError()->hasError(), !valid);
        QCOMPARE(dialog.timeError()->isVisible(), !valid);
        if (valid) {
            QCOMPARE(dialog.dueAtMs(), dueAt);
            QCOMPARE(dialog.delayMs(), delay);
        }
    }

    void pushDialogShowsTheDueTimeAsTyped_data()
    {
        QTest::addColumn<QString>("delay");
        QTest::addColumn<QString>("shown");
        QTest::newRow("nothing typed") << ""
                                       << "Type a delay";
        QTest::newRow("garbage") << "soon"
                                 << "Type a delay";
        QTest::newRow("45 minutes") << "45m"
                                    << ", in 45m";
        QTest::newRow("leading in") << "in 2h"
                                    << ", in 2h";
        QTest::newRow("now") << "0"
                             << ", now";
    }
    void pushDialogShowsTheDueTimeAsTyped()
    {
        QFETCH(QString, delay);
        QFETCH(QString, shown);
        PushDialog dialog(QStringLiteral("orders"));
        // No silent "now": the field starts empty and an empty delay is refused.
        QVERIFY(dialog.delayEdit()->text().isEmpty());
        dialog.delayEdit()->setText(delay);
        QVERIFY2(dialog.dueText().contains(shown), qPrintable(dialog.dueText()));
        dialog.payloadEdit()->setPlainText(QStringLiteral("{}"));
        const bool valid = !shown.startsWith(QLatin1String("Type"));
        QCOMPARE(dialog.validate(), valid);
        QCOMPARE(dialog.timeError()->hasError(), !valid);
        if (delay.isEmpty())
            QVERIFY2(dialog.timeError()->text().contains(QStringLiteral("type a delay")),
                     qPrintable(dialog.timeError()->text()));
    }

    void pushDialogClearsAFixedError()
    {
        PushDialog dialog(QStringLiteral("orders"));
        dialog.show();
        dialog.delayEdit()->setText(QStringLiteral("1m"));
        dialog.payloadEdit()->setPlainText(QStringLiteral("{oops"));
        dialog.accept();
        QVERIFY(dialog.payloadError()->hasError());
        // Fixed as typed: the message goes without pressing Push again.
        dialog.payloadEdit()->setPlainText(QStringLiteral("{\"ok\": true}"));
        QVERIFY(!dialog.payloadError()->hasError());
        QVERIFY(!dialog.payloadError()->isVisible());
        // A time error goes as soon as the time is fixed, too.
        dialog.delayEdit()->setText(QStringLiteral("later"));
        dialog.accept();
        QVERIFY(dialog.timeError()->hasError());
        dialog.delayEdit()->setText(QStringLiteral("in 5m"));
        QVERIFY(!dialog.timeError()->hasError());
    }

    void rescheduleDialogShowsBothDueTimes()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        TaskRow one;
        one.score = now + 3600000;
        RescheduleDialog single({one});
        // A millisecond may pass between the task's time and the dialog's now.
        QVERIFY2(single.currentDueText().contains(QStringLiteral(", in 1h")) ||
                     single.currentDueText().contains(QStringLiteral(", in 59m 59s")),
                 qPrintable(single.currentDueText()));
        single.delayEdit()->setText(QStringLiteral("in 2h"));
        QVERIFY2(single.newDueText().contains(QStringLiteral(", in 2h")),
                 qPrintable(single.newDueText()));
        single.nowMode()->setChecked(true);
        QVERIFY2(single.newDueText().contains(QStringLiteral(", now")),
                 qPrintable(single.newDueText()));

        TaskRow early = one;
        early.score = now - 120000;
        RescheduleDialog several({one, early});
        QVERIFY2(several.currentDueText().contains(QStringLiteral("between")) &&
                     several.currentDueText().contains(QStringLiteral("2m overdue")) &&
                     several.currentDueText().contains(QStringLiteral(", in ")),
                 qPrintable(several.currentDueText()));
    }

    void connectionDialogRefuses_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("field");
        QTest::newRow("valid") << "redis://127.0.0.1:6390/2"
                               << "dq"
                               << "";
        QTest::newRow("empty url") << ""
                                   << "dq"
                                   << "url";
        QTest::newRow("wrong scheme") << "http://127.0.0.1"
                                      << "dq"
                                      << "url";
        QTest::newRow("bad port") << "redis://127.0.0.1:99999"
                                  << "dq"
                                  << "url";
        QTest::newRow("bad prefix") << "redis://127.0.0.1"
                                    << "d q{"
                                    << "prefix";
    }
    void connectionDialogRefuses()
    {
        QFETCH(QString, url);
        QFETCH(QString, prefix);
        QFETCH(QString, field);
        ConnectionDialog dialog;
        dialog.show();
        dialog.urlEdit()->setText(url);
        dialog.prefixEdit()->setText(prefix);
        dialog.accept();
        QCOMPARE(dialog.result() == QDialog::Accepted, field.isEmpty());
        QCOMPARE(dialog.urlError()->hasError(), field == QLatin1String("url"));
        QCOMPARE(dialog.prefixError()->hasError(), field == QLatin1String("prefix"));
    }

    // The mode and TLS fields show what the URL says, whatever typed it.
    void connectionFieldsFollowTheUrl_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QString>("ca");
        QTest::addColumn<bool>("insecure");
        QTest::newRow("one server") << "redis://10.0.0.5:6379/1" << 0 << false << "" << false;
        QTest::newRow("tls") << "rediss://db.internal:6380/0?ca=/etc/ca.pem" << 0 << true
                             << "/etc/ca.pem" << false;
        QTest::newRow("tls, unverified")
            << "rediss://db.internal?insecure=1" << 0 << true << "" << true;
        QTest::newRow("sentinel") << "redis+sentinel://s1,s2:26380/mymaster/2" << 1 << false << ""
                                  << false;
        QTest::newRow("sentinel over tls") << "rediss+sentinel://s1/mymaster?ca=/etc/ca.pem" << 1
                                           << true << "/etc/ca.pem" << false;
        QTest::newRow("cluster") << "redis+cluster://n1:7001,n2:7002/" << 2 << false << "" << false;
    }
    void connectionFieldsFollowTheUrl()
    {
        QFETCH(QString, url);
        QFETCH(int, mode);
        QFETCH(bool, tls);
        QFETCH(QString, ca);
        QFETCH(bool, insecure);
        ConnectionDialog dialog;
        dialog.urlEdit()->setText(url);
        QCOMPARE(dialog.transport()->modeBox()->currentIndex(), mode);
        QCOMPARE(dialog.transport()->sentinelPasswordEdit()->isVisibleTo(&dialog), mode == 1);
        QCOMPARE(dialog.transport()->tls()->isChecked(), tls);
        QCOMPARE(dialog.transport()->tls()->caEdit()->text(), ca);
        QCOMPARE(dialog.transport()->tls()->insecureBox()->isChecked(), insecure);
        QCOMPARE(dialog.urlEdit()->text(), url); // showing rewrites nothing
    }

    // Changing a field rewrites the URL; a password it held moves to the password field.
    void connectionFieldsRewriteTheUrl()
    {
        ConnectionDialog dialog;
        dialog.passwordEdit()->clear();
        dialog.urlEdit()->setText(QStringLiteral("redis://:s3cret-pw@db.internal:6380/2"));
        TransportFields* transport = dialog.transport();
        transport->tls()->setChecked(true);
        QCOMPARE(dialog.urlEdit()->text(), QStringLiteral("rediss://db.internal:6380/2"));
        QCOMPARE(dialog.passwordEdit()->text(), QStringLiteral("s3cret-pw"));
        QTest::keyClicks(transport->tls()->caEdit(), QStringLiteral("/etc/ca.pem"));
        QCOMPARE(dialog.urlEdit()->text(),
                 QStringLiteral("rediss://db.internal:6380/2?ca=/etc/ca.pem"));
        transport->modeBox()->setCurrentIndex(1);
        emit transport->modeBox()->activated(1);
        QCOMPARE(dialog.urlEdit()->text(),
                 QStringLiteral("rediss+sentinel://db.internal:26379/mymaster/2?ca=/etc/ca.pem"));
        transport->modeBox()->setCurrentIndex(0);
        emit transport->modeBox()->activated(0);
        QCOMPARE(dialog.urlEdit()->text(),
                 QStringLiteral("rediss://db.internal:6379/2?ca=/etc/ca.pem"));
        transport->modeBox()->setCurrentIndex(2);
        emit transport->modeBox()->activated(2);
        QCOMPARE(dialog.urlEdit()->text(),
                 QStringLiteral("rediss+cluster://db.internal:6379/?ca=/etc/ca.pem"));
    }

    // A file named in the TLS fields must be there and readable; a certificate needs its key.
    void connectionDialogRefusesTlsFiles_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("words");
        QTest::newRow("missing CA") << "rediss://h?ca=/nonexistent/ca.pem"
                                    << "ca"
                                    << "there is no file at /nonexistent/ca.pem";
        QTest::newRow("CA is a directory") << "rediss://h?ca=/tmp"
                                           << "ca"
                                           << "/tmp is not a file";
        QTest::newRow("missing key") << "rediss://h?cert={here}&key=/nonexistent/client.key"
                                     << "key"
                                     << "there is no file at /nonexistent/client.key";
    }
    void connectionDialogRefusesTlsFiles()
    {
        QFETCH(QString, url);
        QFETCH(QString, field);
        QFETCH(QString, words);
        ConnectionDialog dialog;
        dialog.show();
        dialog.urlEdit()->setText(
            url.replace(QStringLiteral("{here}"), QFINDTESTDATA("tst_dialogs.cpp")));
        dialog.accept();
        QVERIFY(dialog.result() != QDialog::Accepted);
        TlsFields* tls = dialog.transport()->tls();
        FieldError* error = field == QLatin1String("ca") ? tls->caError() : tls->keyError();
        QVERIFY2(error->text().contains(words), qPrintable(error->text()));
        QVERIFY(!dialog.urlError()->hasError());
    }

    // Secrets of TLS and Sentinel reach the session, never the URL or the settings file.
    void connectionSecretsStayInTheSession()
    {
        ConnectionDialog dialog;
        dialog.nameEdit()->setText(QStringLiteral("sentinels"));
        dialog.urlEdit()->setText(QStringLiteral("rediss+sentinel://s1/mymaster"));
        dialog.transport()->sentinelPasswordEdit()->setText(QStringLiteral("sentinel-pw"));
        dialog.transport()->tls()->passphraseEdit()->setText(QStringLiteral("key-phrase"));
        QVERIFY(dialog.validate());
        QCOMPARE(dialog.settings().sentinelPassword, QStringLiteral("sentinel-pw"));
        QCOMPARE(dialog.settings().tlsKeyPassphrase, QStringLiteral("key-phrase"));
        QVERIFY(!dialog.settings().url.contains(QStringLiteral("pw")));
        QVERIFY(dialog.saveProfile());
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("rediss+sentinel"));
        QVERIFY(!stored.contains("sentinel-pw"));
        QVERIFY(!stored.contains("key-phrase"));
    }

    // Connect… opens on the server the window is on: its profile if one has it, else its URL.
    void connectionDialogStartsFromTheCurrentServer()
    {
        QSettings().clear();
        ConnectionDialog saver;
        saver.nameEdit()->setText(QStringLiteral("staging"));
        saver.urlEdit()->setText(QStringLiteral("redis://10.0.0.9:6379/2"));
        QVERIFY(saver.saveProfile());
        ConnectionDialog other;
        other.nameEdit()->setText(QStringLiteral("local"));
        other.urlEdit()->setText(QStringLiteral("redis://127.0.0.1:6379/0"));
        QVERIFY(other.saveProfile());

        ConnectionDialog onProfile;
        onProfile.startFrom(
            ConnectionSettings::forUrl(QStringLiteral("redis://:pw@10.0.0.9:6379/2")));
        QCOMPARE(onProfile.nameEdit()->text(), QStringLiteral("staging"));
        QCOMPARE(onProfile.urlEdit()->text(), QStringLiteral("redis://10.0.0.9:6379/2"));

        ConnectionDialog elsewhere;
        ConnectionSettings jobs =
            ConnectionSettings::forUrl(QStringLiteral("redis://:pw@10.0.0.7:6380/1"));
        jobs.prefix = QStringLiteral("jobs");
        jobs.readOnly = true;
        elsewhere.startFrom(jobs);
        QVERIFY(elsewhere.nameEdit()->text().isEmpty());
        QCOMPARE(elsewhere.urlEdit()->text(), QStringLiteral("redis://10.0.0.7:6380/1"));
        QCOMPARE(elsewhere.prefixEdit()->text(), QStringLiteral("jobs"));
        QVERIFY(elsewhere.readOnlyBox()->isChecked());
        QVERIFY(elsewhere.passwordEdit()->text().isEmpty());
        QSettings().clear();
    }

    void profileNeverStoresPassword()
    {
        ConnectionDialog dialog;
        dialog.nameEdit()->setText(QStringLiteral("prod"));
        dialog.urlEdit()->setText(QStringLiteral("redis://ops:s3cret-pw@10.0.0.5:6379/1"));
        dialog.passwordEdit()->setText(QStringLiteral("typed-pw"));
        dialog.readOnlyBox()->setChecked(true);
        QVERIFY(dialog.saveProfile());
        QVERIFY(ConnectionDialog::profileNames().contains(QStringLiteral("prod")));
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("10.0.0.5"));
        QVERIFY(!stored.contains("s3cret-pw"));
        QVERIFY(!stored.contains("typed-pw"));

        ConnectionDialog reopened;
        QCOMPARE(reopened.readOnlyBox()->isChecked(), true);
        QVERIFY(!reopened.urlEdit()->text().contains(QStringLiteral("s3cret")));
        // The session still gets the password that was typed.
        QVERIFY(dialog.validate());
        QCOMPARE(dialog.settings().password, QStringLiteral("typed-pw"));
    }

    // Every form the core reads a password from: the settings file never holds it, neither
    // in the profile nor as the remembered last URL, and a URL the core refuses is not saved.
    void passwordFormsNeverStored_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("password"); // as the core reads it
        QTest::addColumn<QString>("stored");   // the profile's URL; "" = refused, not saved

        QTest::newRow("user and password") << "redis://ops:Zq7-secret@10.0.0.5:6379/1"
                                           << "Zq7-secret"
                                           << "redis://10.0.0.5:6379/1?user=ops";
        QTest::newRow("password only") << "redis://Zq7-secret@10.0.0.5"
                                       << "Zq7-secret"
                                       << "redis://10.0.0.5:6379/0";
        QTest::newRow("redis ?password=") << "redis://10.0.0.5:6380/2?password=Zq7-secret"
                                          << "Zq7-secret"
                                          << "redis://10.0.0.5:6380/2";
        QTest::newRow("unix ?password=") << "unix:///tmp/r.sock?password=Zq7-secret&db=3"
                                         << "Zq7-secret"
                                         << "unix:///tmp/r.sock?db=3";
        QTest::newRow("unencoded / ? # @") << "redis://ops:Zq7/s?e#c@ret@10.0.0.5:7/1"
                                           << "Zq7/s?e#c@ret"
                                           << "redis://10.0.0.5:7/1?user=ops";
        QTest::newRow("percent-encoded") << "redis://:Zq7%2Dsecret@10.0.0.5"
                                         << "Zq7-secret"
                                         << "redis://10.0.0.5:6379/0";
        QTest::newRow("refused (bad port)") << "redis://ops:Zq7-secret@10.0.0.5:99999"
                                            << ""
                                            << "";
    }
    void passwordFormsNeverStored()
    {
        QFETCH(QString, url);
        QFETCH(QString, password);
        QFETCH(QString, stored);
        QSettings().clear();
        ConnectionDialog dialog;
        dialog.nameEdit()->setText(QStringLiteral("forms"));
        dialog.urlEdit()->setText(url);
        QCOMPARE(dialog.saveProfile(), !stored.isEmpty());
        QString found;
        QCOMPARE(ConnectionDialog::stripPassword(url, &found), stored);
        QCOMPARE(found, password);
        {
            // What MainWindow keeps as the last connection.
            QSettings settings;
            settings.setValue(QStringLiteral("last/url"), ConnectionDialog::stripPassword(url));
        }
        const QByteArray bytes = settingsBytes();
        for (const char* secret : {"Zq7", "secret", "c@ret"})
            QVERIFY2(!bytes.contains(secret), bytes.constData());
        if (stored.isEmpty()) {
            QVERIFY(ConnectionDialog::profileNames().isEmpty());
            return;
        }
        ConnectionDialog reopened;
        QCOMPARE(reopened.urlEdit()->text(), stored);
        // The session still connects with the password in the URL.
        QVERIFY(dialog.validate());
        QCOMPARE(dialog.settings().url, url);
    }

    void noKeychainKeepsPasswordForSession()
    {
        QSettings().clear();
        // Not redis://ops@host: the core reads a lone user-info part as a password.
        const QString url = QStringLiteral("redis://10.0.0.9:6379/0?user=ops");
        ConnectionDialog dialog;
        QVERIFY(dialog.keychainNote()->isHidden());
        dialog.nameEdit()->setText(QStringLiteral("vault"));
        dialog.urlEdit()->setText(url);
        dialog.passwordEdit()->setText(QStringLiteral("kc-typed-pw"));
        if (!PasswordStore::isBuiltIn()) {
            // Built without QtKeychain: the box says why it cannot be ticked.
            QVERIFY(!dialog.rememberBox()->isEnabled());
            QVERIFY(!dialog.rememberBox()->toolTip().isEmpty());
            QSKIP("built without QtKeychain");
        }
        dialog.rememberBox()->setChecked(true);
        QVERIFY(dialog.saveProfile());
        QTRY_VERIFY(!dialog.keychainNote()->isHidden());
        QVERIFY2(dialog.keychainNote()->text().contains(QStringLiteral("No system keychain")),
                 qPrintable(dialog.keychainNote()->text()));
        QCOMPARE(dialog.keychainNote()->textFormat(), Qt::PlainText);
        QVERIFY(dialog.validate());
        QCOMPARE(dialog.settings().password, QStringLiteral("kc-typed-pw"));

        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("10.0.0.9"));
        QVERIFY(!stored.contains("kc-typed-pw"));
        QVERIFY(ConnectionDialog::remembersPassword(url));
        QVERIFY(
            ConnectionDialog::remembersPassword(QStringLiteral("redis://ops:x@10.0.0.9:6379/0")));
        QVERIFY(!ConnectionDialog::remembersPassword(QStringLiteral("redis://10.0.0.9:6379/0")));

        // Loading the profile asks the keychain, which does not answer: the note, an empty
        // field, and the dialog goes on.
        ConnectionDialog reopened;
        QCOMPARE(reopened.urlEdit()->text(), url);
        QVERIFY(reopened.rememberBox()->isChecked());
        QTRY_VERIFY(!reopened.keychainNote()->isHidden());
        QVERIFY(reopened.keychainNote()->text().contains(QStringLiteral("No system keychain")));
        QVERIFY(reopened.passwordEdit()->text().isEmpty());
        QVERIFY(reopened.validate());
    }

    // The keychain entry of a profile is named by its URL as stored, also when it was saved
    // in another spelling (before URLs were rebuilt): any spelling of that server finds it.
    void rememberedKeyFindsEverySpelling_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("key"); // "" = none
        QTest::newRow("stored spelling") << "redis://10.0.0.21:6379"
                                         << "redis://10.0.0.21:6379";
        QTest::newRow("rebuilt spelling") << "redis://10.0.0.21:6379/0"
                                          << "redis://10.0.0.21:6379";
        QTest::newRow("with its password") << "redis://:pw@10.0.0.21"
                                           << "redis://10.0.0.21:6379";
        QTest::newRow("other db") << "redis://10.0.0.21:6379/1"
                                  << "";
        QTest::newRow("other user") << "redis://10.0.0.21:6379?user=eve"
                                    << "";
        QTest::newRow("profile without keychain") << "redis://10.0.0.22:6379/0"
                                                  << "";
        QTest::newRow("refused URL") << "redis://10.0.0.21:99999"
                                     << "";
    }
    void rememberedKeyFindsEverySpelling()
    {
        QFETCH(QString, url);
        QFETCH(QString, key);
        QSettings().clear();
        {
            QSettings settings;
            settings.setValue(QStringLiteral("profiles/legacy/url"),
                              QStringLiteral("redis://10.0.0.21:6379"));
            settings.setValue(QStringLiteral("profiles/legacy/keychain"), true);
            settings.setValue(QStringLiteral("profiles/plain/url"),
                              QStringLiteral("redis://10.0.0.22:6379/0"));
            settings.setValue(QStringLiteral("profiles/plain/keychain"), false);
        }
        QCOMPARE(ConnectionDialog::rememberedKey(url), key);
        QCOMPARE(ConnectionDialog::remembersPassword(url), !key.isEmpty());
        if (key.isEmpty())
            return;
        // Once a profile is saved in the rebuilt spelling, its entry is the one read.
        ConnectionDialog dialog;
        dialog.nameEdit()->setText(QStringLiteral("rebuilt"));
        dialog.urlEdit()->setText(url);
        dialog.rememberBox()->setChecked(PasswordStore::isBuiltIn());
        QVERIFY(dialog.saveProfile());
        if (PasswordStore::isBuiltIn())
            QCOMPARE(ConnectionDialog::rememberedKey(url),
                     QStringLiteral("redis://10.0.0.21:6379/0"));
    }

    // Settings written before the fix may hold a password: scrubbing rewrites them without
    // it, and leaves the others as they are.
    void scrubRemovesStoredPasswords_data()
    {
        QTest::addColumn<QString>("stored");
        QTest::addColumn<bool>("remembered");
        QTest::addColumn<QString>("scrubbed");
        QTest::addColumn<bool>("stillRemembered");
        QTest::newRow("password only")
            << "redis://Zq9-secret@10.0.0.31" << false << "redis://10.0.0.31:6379/0" << false;
        QTest::newRow("?password=, remembered") << "redis://10.0.0.32:7/1?password=Zq9-secret"
                                                << true << "redis://10.0.0.32:7/1" << false;
        QTest::newRow("unix ?password=")
            << "unix:///tmp/r.sock?password=Zq9-secret" << false << "unix:///tmp/r.sock" << false;
        QTest::newRow("unencoded / ? # @") << "redis://u:Zq9/s?e#c@ret@10.0.0.33" << true
                                           << "redis://10.0.0.33:6379/0?user=u" << false;
        QTest::newRow("no password: untouched")
            << "redis://10.0.0.34:6379" << true << "redis://10.0.0.34:6379" << true;
        QTest::newRow("refused: untouched")
            << "redis://10.0.0.35:99999" << false << "redis://10.0.0.35:99999" << false;
    }
    void scrubRemovesStoredPasswords()
    {
        QFETCH(QString, stored);
        QFETCH(bool, remembered);
        QFETCH(QString, scrubbed);
        QFETCH(bool, stillRemembered);
        QSettings().clear();
        {
            QSettings settings;
            settings.setValue(QStringLiteral("profiles/old/url"), stored);
            settings.setValue(QStringLiteral("profiles/old/keychain"), remembered);
            settings.setValue(QStringLiteral("last/url"), stored);
        }
        ConnectionDialog::scrubStoredPasswords();
        const QByteArray bytes = settingsBytes();
        for (const char* secret : {"Zq9", "secret", "c@ret"})
            QVERIFY2(!bytes.contains(secret), bytes.constData());
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("profiles/old/url")).toString(), scrubbed);
        QCOMPARE(settings.value(QStringLiteral("last/url")).toString(), scrubbed);
        QCOMPARE(settings.value(QStringLiteral("profiles/old/keychain")).toBool(), stillRemembered);
    }

    void profileNameIsChecked()
    {
        ConnectionDialog dialog;
        dialog.nameEdit()->setText(QStringLiteral("a/b"));
        dialog.urlEdit()->setText(QStringLiteral("redis://127.0.0.1"));
        QVERIFY(!dialog.saveProfile());
        QVERIFY(dialog.nameError()->hasError());
    }

    void findBarParsesTimes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expected"); // -1: refused
        const qint64 now = 1'800'000'000'000;
        QTest::newRow("now") << "now" << now;
        QTest::newRow("plus") << "+10m" << now + 600000;
        QTest::newRow("minus") << "-1h" << now - 3600000;
        QTest::newRow("iso utc") << "2030-01-01T00:00:00Z" << qint64(1893456000000);
        QTest::newRow("garbage") << "01ABCDEF" << qint64(-1);
        QTest::newRow("plus garbage") << "+soon" << qint64(-1);
    }
    void findBarParsesTimes()
    {
        QFETCH(QString, text);
        QFETCH(qint64, expected);
        const qint64 now = 1'800'000'000'000;
        try {
            QCOMPARE(FindBar::parseWhen(text, now), expected);
        } catch (const std::exception&) {
            QCOMPARE(expected, qint64(-1));
        }
    }

private:
    static QByteArray settingsBytes()
    {
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
};

QTEST_MAIN(TestDialogs)
#include "tst_dialogs.moc"
