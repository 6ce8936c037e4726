#include "tlssuite.h"

#include <QTest>

TlsSuite::TlsSuite()
{
    // Before RedisSuite starts the server: it serves TLS from its first start on.
    m_certificatesMade = m_certs.create();
    if (m_certificatesMade)
        m_server.setTls({m_certs.cert("server"), m_certs.key("server"), m_certs.cert("ca")});
}

void TlsSuite::initTest()
{
    QVERIFY2(m_certificatesMade, qPrintable(m_certs.errorString()));
    QVERIFY2(m_server.tlsPort() > 0, "no TLS port");
    serveCertificate(QStringLiteral("server"));
    m_server.cli({"CONFIG", "SET", "tls-auth-clients", "no"});
    initTlsTest();
}

void TlsSuite::serveCertificate(const QString& name)
{
    const QByteArray r = m_server.cli(
        {"CONFIG", "SET", "tls-cert-file", m_certs.cert(name), "tls-key-file", m_certs.key(name)});
    QVERIFY2(r.trimmed() == "OK", r.constData());
}

std::string TlsSuite::ca(const QString& name) const
{
    return "?ca=" + m_certs.cert(name).toStdString();
}
