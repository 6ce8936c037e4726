#pragma once

#include <QObject>
#include <QString>

namespace delayq::ui {

// Connection passwords in the system keychain (QtKeychain: Secret Service, KWallet, ...),
// service "delayq-admin", one entry per key (a server URL without its password). Every call
// answers later by a signal, so the GUI thread never waits on the keychain; built without
// QtKeychain, every call answers Unavailable. Never a plain-text fallback.
class PasswordStore : public QObject
{
    Q_OBJECT

public:
    enum class Result
    {
        Done,       // read: found; write, remove: done
        NotFound,   // the keychain answered: nothing stored under the key
        Unavailable // no keychain answered (no Secret Service, locked, refused, not built in)
    };
    Q_ENUM(Result)

    explicit PasswordStore(QObject* parent = nullptr);

    // Built with QtKeychain (whether a keychain answers is only known from a result).
    static bool isBuiltIn();

    void read(const QString& key);
    void write(const QString& key, const QString& password);
    void remove(const QString& key);

signals:
    // password is empty unless result is Done.
    void passwordRead(const QString& key, delayq::ui::PasswordStore::Result result,
                      const QString& password);
    void passwordWritten(const QString& key, delayq::ui::PasswordStore::Result result);
    void passwordRemoved(const QString& key, delayq::ui::PasswordStore::Result result);
};

} // namespace delayq::ui
