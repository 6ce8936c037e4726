#include "testcertificates.h"

#include <QDir>
#include <QFile>
#include <QProcess>

bool TestCertificates::openssl(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setWorkingDirectory(m_dir.path());
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(20000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = QStringLiteral("openssl ") + args.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                  (p.error() == QProcess::FailedToStart
                       ? QStringLiteral("not found (install the Debian package openssl)")
                       : QString::fromLocal8Bit(p.readAll()));
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished();
        }
        return false;
    }
    return true;
}

bool TestCertificates::makeCa(const QString& name)
{
    return openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key(name), "-out", cert(name), "-days", "7", "-subj",
                    "/CN=delayq " + name});
}

bool TestCertificates::makeSigned(const QString& name, const QString& altNames, int days)
{
    const QString csr = m_dir.filePath(name + ".csr");
    const QString extensions = m_dir.filePath(name + ".ext");
    QFile ext(extensions);
    if (!ext.open(QIODevice::WriteOnly))
        return false;
    ext.write(altNames.isEmpty()
                  ? "extendedKeyUsage=clientAuth\n"
                  : ("subjectAltName=" + altNames.toLatin1() + "\nextendedKeyUsage=serverAuth\n"));
    ext.close();
    return openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key(name), "-out", csr, "-subj", "/CN=delayq " + name}) &&
           // -days -1 puts notAfter a day in the past: an expired certificate.
           openssl({"x509", "-req", "-in", csr, "-CA", cert("ca"), "-CAkey", key("ca"),
                    "-CAcreateserial", "-days", QString::number(days), "-extfile", extensions,
                    "-out", cert(name)});
}

bool TestCertificates::create()
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary folder");
        return false;
    }
    const QString local = QStringLiteral("DNS:localhost,IP:127.0.0.1");
    if (!QDir(m_dir.path()).mkpath(QStringLiteral("cadir")))
        return false;
    return makeCa("ca") && makeCa("unknownCa") && makeSigned("server", local, 7) &&
           makeSigned("other", QStringLiteral("DNS:other.example"), 7) &&
           makeSigned("expired", local, -1) && makeSigned("client", QString(), 7) &&
           openssl({"pkey", "-in", key("client"), "-aes256", "-passout",
                    QStringLiteral("pass:") + kPassphrase, "-out", key("clientEncrypted")}) &&
           QFile::copy(cert("ca"), caDir() + QStringLiteral("/ca.crt")) &&
           openssl({"rehash", caDir()});
}
