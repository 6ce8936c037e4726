#include "redissuite.h"

#include <QStandardPaths>
#include <QTest>

namespace {

// Why the suite cannot run here, or "" when it can. RedisServer starts both tools by name,
// so they are looked up the way QProcess looks them up: on PATH.
QString missingTools()
{
    QStringList missing;
    for (const char* tool : {"redis-server", "redis-cli"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
            missing << QString::fromLatin1(tool);
    if (missing.isEmpty())
        return {};
    return missing.join(QLatin1String(" and ")) +
           QStringLiteral(" not found on PATH: this suite runs its own Redis server (install the "
                          "Debian packages redis-server and redis-tools, or run scripts/setup)");
}

} // namespace

void RedisSuite::initTestCase()
{
    const QString missing = missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
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
