#include "redissuite.h"

#include <QTest>

void RedisSuite::initTestCase()
{
    const QString missing = RedisServer::missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    initSuite();
}

void RedisSuite::init()
{
    if (!m_server.isRunning())
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    m_server.thaw();
    m_server.cli({QStringLiteral("FLUSHALL")});
    initTest();
}

void RedisSuite::cleanup()
{
    cleanupTest();
}

void RedisSuite::cleanupTestCase()
{
    m_server.stop();
}
