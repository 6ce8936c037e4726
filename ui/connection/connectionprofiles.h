#pragma once

#include <QString>
#include <QStringList>

namespace delayq::ui {

// The saved connection profiles in QSettings (URL without its password, prefix, read-only,
// whether the keychain holds the password) and the passwords kept out of them.
class ConnectionProfiles
{
public:
    struct Profile
    {
        QString url;
        QString prefix = QStringLiteral("dq");
        bool readOnly = false;
        bool keychain = false; // a flag only, never the password
    };

    static QStringList names();
    // A missing profile reads as the defaults with an empty URL.
    static Profile read(const QString& name);
    static void write(const QString& name, const Profile& profile);
    // Removes the profile; what it held, for its keychain entry.
    static Profile remove(const QString& name);
    // The first profile whose URL names `server` (a stripped URL), or empty.
    static QString nameFor(const QString& server);

    // See ConnectionDialog: the same functions, kept there for their callers.
    static QString stripPassword(const QString& url, QString* password = nullptr);
    static void scrubStoredPasswords();
    static QString rememberedKey(const QString& url);
};

} // namespace delayq::ui
