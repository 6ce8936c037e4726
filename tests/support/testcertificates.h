#pragma once

#include <QString>
#include <QTemporaryDir>

// Certificates for TLS tests, made once in a temporary folder with the openssl command line
// (EC P-256 keys: quick to make). Every certificate is PEM, with its key next to it:
//   ca          the test CA, which signs all of the below
//   server      for localhost and 127.0.0.1 (valid for a week)
//   other       for other.example only
//   expired     for localhost and 127.0.0.1, expired yesterday
//   client      a client certificate for mutual TLS; key("clientEncrypted") is its key
//               encrypted with kPassphrase
//   unknownCa   a second CA that signed none of them
class TestCertificates
{
public:
    static constexpr const char* kPassphrase = "Hunter2Key";

    // Makes them all; false with the reason in errorString() when openssl is missing or fails.
    bool create();
    QString errorString() const { return m_error; }

    QString cert(const QString& name) const { return m_dir.filePath(name + ".crt"); }
    QString key(const QString& name) const { return m_dir.filePath(name + ".key"); }
    QString dir() const { return m_dir.path(); }
    // A folder holding only the CA certificate under its hashed name (openssl rehash), as a
    // CA directory must.
    QString caDir() const { return m_dir.filePath(QStringLiteral("cadir")); }

private:
    bool openssl(const QStringList& args);
    bool makeCa(const QString& name);
    // A certificate signed by the CA, valid `days` from now (-1: expired yesterday), for the
    // subjectAltName given ("DNS:localhost,IP:127.0.0.1"), or a client certificate when empty.
    bool makeSigned(const QString& name, const QString& altNames, int days);

    QTemporaryDir m_dir;
    QString m_error;
};
