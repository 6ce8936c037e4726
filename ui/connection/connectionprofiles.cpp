#include "connection/connectionprofiles.h"

#include "connection/passwordstore.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <QCoreApplication>
#include <QSettings>

#include <memory>

namespace delayq::ui {

namespace {

const QString kGroup = QStringLiteral("profiles");
const QString kKeychain = QStringLiteral("keychain"); // a flag only, never the password

} // namespace

QStringList ConnectionProfiles::names()
{
    QSettings settings;
    settings.beginGroup(kGroup);
    return settings.childGroups();
}

ConnectionProfiles::Profile ConnectionProfiles::read(const QString& name)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(name);
    Profile profile;
    profile.url = settings.value(QStringLiteral("url")).toString();
    profile.prefix = settings.value(QStringLiteral("prefix"), QStringLiteral("dq")).toString();
    profile.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
    profile.keychain = settings.value(kKeychain, false).toBool();
    return profile;
}

void ConnectionProfiles::write(const QString& name, const Profile& profile)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(name);
    settings.setValue(QStringLiteral("url"), profile.url);
    settings.setValue(QStringLiteral("prefix"), profile.prefix);
    settings.setValue(QStringLiteral("readOnly"), profile.readOnly);
    settings.setValue(kKeychain, profile.keychain);
}

ConnectionProfiles::Profile ConnectionProfiles::remove(const QString& name)
{
    const Profile removed = read(name);
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.remove(name);
    return removed;
}

QString ConnectionProfiles::nameFor(const QString& server)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    for (const QString& name : settings.childGroups())
        if (stripPassword(settings.value(name + QStringLiteral("/url")).toString()) == server)
            return name;
    return {};
}

void ConnectionProfiles::scrubStoredPasswords()
{
    QSettings settings;
    QStringList leakedKeys;
    auto scrub = [&settings, &leakedKeys](const QString& urlKey, const QString& keychainKey) {
        const QString stored = settings.value(urlKey).toString();
        QString password;
        const QString stripped = stripPassword(stored, &password);
        if (password.isEmpty())
            return;
        settings.setValue(urlKey, stripped);
        if (!keychainKey.isEmpty() && settings.value(keychainKey, false).toBool()) {
            settings.setValue(keychainKey, false);
            leakedKeys << stored;
        }
    };
    scrub(QStringLiteral("last/url"), {});
    for (const QString& name : names())
        scrub(kGroup + QLatin1Char('/') + name + QStringLiteral("/url"),
              kGroup + QLatin1Char('/') + name + QLatin1Char('/') + kKeychain);
    leakedKeys.removeDuplicates();
    if (leakedKeys.isEmpty() || !PasswordStore::isBuiltIn())
        return;
    // Outlives the caller until the keychain has answered every removal.
    auto* store = new PasswordStore(QCoreApplication::instance());
    auto pending = std::make_shared<int>(leakedKeys.size());
    QObject::connect(store, &PasswordStore::passwordRemoved, store, [store, pending] {
        if (--*pending == 0)
            store->deleteLater();
    });
    for (const QString& key : leakedKeys)
        store->remove(key);
}

QString ConnectionProfiles::rememberedKey(const QString& url)
{
    const QString key = stripPassword(url.trimmed());
    if (key.isEmpty())
        return {};
    QSettings settings;
    settings.beginGroup(kGroup);
    QString found;
    for (const QString& name : settings.childGroups()) {
        settings.beginGroup(name);
        const QString stored = settings.value(QStringLiteral("url")).toString();
        const bool remembered = settings.value(kKeychain, false).toBool();
        settings.endGroup();
        // Compared as stripped: a profile saved before URLs were rebuilt keeps its spelling,
        // and its keychain entry that spelling. The current spelling wins: saving writes it.
        if (!remembered || stripPassword(stored) != key)
            continue;
        if (stored == key)
            return stored;
        if (found.isEmpty())
            found = stored;
    }
    return found;
}

QString ConnectionProfiles::stripPassword(const QString& url, QString* password)
{
    // The core's own parser: any form it reads a password from (password-only user info,
    // ?password=, unencoded / ? # @) is one QUrl would miss.
    try {
        const auto options = delayq::ConnectionOptions::fromUrl(url.toStdString());
        if (password)
            *password = QString::fromStdString(options.password);
        return QString::fromStdString(options.urlWithoutPassword());
    } catch (const delayq::Error&) {
        return {};
    }
}

} // namespace delayq::ui
