#pragma once

#include <QString>
#include <QStringList>

namespace delayq::ui {

// The saved connection profiles in QSettings (URL without its password, prefix, read-only,
// whether the keychain holds the password) and the passwords kept out of them.
namespace ConnectionProfiles {

struct Profile
{
    QString url;
    QString prefix = QStringLiteral("dq");
    bool readOnly = false;
    bool keychain = false; // a flag only, never the password
};

QStringList names();
// A missing profile reads as the defaults with an empty URL.
Profile read(const QString& name);
void write(const QString& name, const Profile& profile);
// Removes the profile; what it held, for its keychain entry.
Profile remove(const QString& name);
// The first profile whose URL names `server` (a stripped URL), or empty.
QString nameFor(const QString& server);

// See ConnectionDialog: the same functions, kept there for their callers.
QString stripPassword(const QString& url, QString* password = nullptr);
void scrubStoredPasswords();
QString rememberedKey(const QString& url);

} // namespace ConnectionProfiles

} // namespace delayq::ui
