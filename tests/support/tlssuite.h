#pragma once

#include "redissuite.h"
#include "testcertificates.h"

#include <string>

// The base of the TLS suites: certificates made once (TestCertificates), the server serving
// TLS on a second port from its first start, and before each test the server's own
// certificate back in place and client certificates not required.
class TlsSuite : public RedisSuite
{
    Q_OBJECT

public:
    TlsSuite();

protected:
    void initTest() final;
    // A suite's own set-up, after the TLS reset.
    virtual void initTlsTest() {}

    // The certificate the server presents from the next handshake on.
    void serveCertificate(const QString& name);
    // "?ca=FILE" for the CA called name.
    std::string ca(const QString& name = QStringLiteral("ca")) const;

    TestCertificates m_certs;

private:
    bool m_certificatesMade = false;
};
