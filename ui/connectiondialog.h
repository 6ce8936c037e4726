#pragma once

#include "admintypes.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace delayq::ui {

class FieldError;

// Choose a server: saved profiles (name, URL, prefix, read-only) in QSettings. A password
// is never written to disk: one typed in the URL or the password field is kept only for
// this session.
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
    FieldError* urlError() const { return m_urlError; }
    FieldError* prefixError() const { return m_prefixError; }
    FieldError* nameError() const { return m_nameError; }

    // Saves (or replaces) a profile; the password in the URL, if any, is dropped.
    bool saveProfile();
    // Splits "redis://user:secret@host" into the URL without the password and the password.
    static QString stripPassword(const QString& url, QString* password = nullptr);
    static QStringList profileNames();

    void accept() override;

private:
    void loadProfile(const QString& name);
    void deleteProfile();
    void reloadProfiles(const QString& select);

    QComboBox* m_profiles;
    QLineEdit* m_name;
    FieldError* m_nameError;
    QLineEdit* m_url;
    FieldError* m_urlError;
    QLineEdit* m_password;
    QLineEdit* m_prefix;
    FieldError* m_prefixError;
    QCheckBox* m_readOnly;
    ConnectionSettings m_settings;
};

} // namespace delayq::ui
