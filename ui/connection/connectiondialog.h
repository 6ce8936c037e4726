#pragma once

#include "client/connectiontypes.h"
#include "connection/connectionprofiles.h"
#include "connection/passwordstore.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace delayq::ui {

class FieldError;
class TransportFields;

// Choose a server: saved profiles (name, URL, prefix, read-only) in QSettings. A password
// is never written to QSettings: one typed in the URL or the password field is kept for this
// session, and, when the profile is saved with "remember" ticked, in the system keychain under
// the URL without its password (so profiles of one server share it, and the next start finds
// it from the last URL alone).
class ConnectionDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectionDialog(QWidget* parent = nullptr);

    bool validate();
    ConnectionSettings settings() const { return m_settings; }
    QString profileName() const;

    QLineEdit* urlEdit() const { return m_url; }
    QLineEdit* passwordEdit() const { return m_password; }
    QLineEdit* prefixEdit() const { return m_prefix; }
    QLineEdit* nameEdit() const { return m_name; }
    QCheckBox* readOnlyBox() const { return m_readOnly; }
    QCheckBox* rememberBox() const { return m_remember; }
    // What the keychain did last (saved, read, none answering); hidden when there is no news.
    QLabel* keychainNote() const { return m_keychainNote; }
    FieldError* urlError() const { return m_urlError; }
    FieldError* prefixError() const { return m_prefixError; }
    FieldError* nameError() const { return m_nameError; }
    TransportFields* transport() const { return m_transport; }

    // Saves (or replaces) a profile; the password in the URL, if any, is dropped.
    bool saveProfile();
    // Splits a URL into the URL without any password (the form stored and used as keychain
    // key, see ConnectionOptions::urlWithoutPassword) and the password. Empty for a URL the
    // core refuses: what cannot be parsed cannot be known to hold no password.
    static QString stripPassword(const QString& url, QString* password = nullptr)
    {
        return ConnectionProfiles::stripPassword(url, password);
    }
    static QStringList profileNames() { return ConnectionProfiles::names(); }
    // Settings written before passwords were stripped with the core's parser may hold one
    // (redis://secret@host, ?password=, ...): rewrites those URLs (profiles and the last
    // connection) without it. A keychain entry named by such a URL is removed, as its name
    // holds the secret, and the profile no longer remembers a password: it is asked again.
    static void scrubStoredPasswords() { ConnectionProfiles::scrubStoredPasswords(); }
    // The keychain key of a saved profile for this URL that keeps its password there (the
    // profile's URL as stored, which a profile saved before URLs were rebuilt spells its own
    // way), or empty.
    static QString rememberedKey(const QString& url)
    {
        return ConnectionProfiles::rememberedKey(url);
    }
    static bool remembersPassword(const QString& url) { return !rememberedKey(url).isEmpty(); }

    // Opens on what the window is connected to: its profile when one has that server, else
    // its URL (without the password), prefix and read-only flag.
    void startFrom(const ConnectionSettings& current);

    void accept() override;

private:
    // The rows of the form, top to bottom.
    void addProfileRows(QFormLayout* form);
    void addPasswordRows(QFormLayout* form);
    QDialogButtonBox* makeButtons();
    void loadProfile(const QString& name);
    void deleteProfile();
    void reloadProfiles(const QString& select);
    // Removes the keychain entry unless another profile still remembers it.
    void forgetUnlessShared(const QString& key);
    void showKeychainNote(const QString& note);
    // Clears a password the keychain filled in once the URL names another server.
    void urlChanged();
    // The mode or a TLS field changed: the URL follows.
    void rewriteUrl();
    void readAnswered(const QString& key, PasswordStore::Result result, const QString& password);
    // Fills the password field with the one kept this session for the URL's server, if any.
    bool fillKeptPassword();
    void writeAnswered(PasswordStore::Result result);
    void removeAnswered(PasswordStore::Result result);

    QComboBox* m_profiles;
    QLineEdit* m_name;
    FieldError* m_nameError;
    QLineEdit* m_url;
    FieldError* m_urlError;
    QLineEdit* m_password;
    QLineEdit* m_prefix;
    FieldError* m_prefixError;
    QCheckBox* m_readOnly;
    QCheckBox* m_remember;
    QLabel* m_keychainNote;
    PasswordStore* m_store;
    QString m_pendingRead; // the key whose password is being read into the field
    // The server (stripped URL) whose keychain password fills the field; empty once the user
    // types a password.
    QString m_filledFrom;
    bool m_filledFromSession = false; // m_filledFrom's password was kept this session
    TransportFields* m_transport;
    bool m_rewriting = false; // the URL is being set from the fields, not typed
    ConnectionSettings m_settings;
};

} // namespace delayq::ui
