#pragma once

#include <delayq/tlsoptions.h>

#include <QGroupBox>

class QCheckBox;
class QFormLayout;
class QLineEdit;

namespace delayq::ui {

class FieldError;

// The TLS part of a connection profile: a box that is ticked for rediss://, the CA, the
// client certificate and key with file pickers, the name to verify, and the loud switch
// that skips verification. The URL holds all of it but the key's passphrase, which lives
// for the session only.
class TlsFields : public QGroupBox
{
    Q_OBJECT

public:
    explicit TlsFields(QWidget* parent = nullptr);

    // Shows the TLS options of a URL; does not emit edited().
    void showOptions(const delayq::TlsOptions& tls);
    // What the fields say, passphrase included.
    delayq::TlsOptions options() const;
    // A path given must name a readable file (the CA directory: a directory), and a client
    // certificate needs its key. Marks each refused field; true when all are fine.
    bool validate();

    QLineEdit* caEdit() const { return m_ca; }
    QLineEdit* keyEdit() const { return m_key; }
    QLineEdit* passphraseEdit() const { return m_passphrase; }
    QLineEdit* serverNameEdit() const { return m_serverName; }
    QCheckBox* insecureBox() const { return m_insecure; }
    FieldError* caError() const { return m_caError; }
    FieldError* certError() const { return m_certError; }
    FieldError* keyError() const { return m_keyError; }

signals:
    // The user changed a field: the URL should follow.
    void edited();

private:
    QLineEdit* addPathRow(QFormLayout* form, const QString& label, const QString& hint,
                          FieldError* error, bool directory);

    QLineEdit* m_ca;
    QLineEdit* m_caDir;
    QLineEdit* m_cert;
    QLineEdit* m_key;
    QLineEdit* m_passphrase;
    QLineEdit* m_serverName;
    QCheckBox* m_insecure;
    FieldError* m_caError;
    FieldError* m_caDirError;
    FieldError* m_certError;
    FieldError* m_keyError;
    bool m_showing = false;
};

} // namespace delayq::ui
