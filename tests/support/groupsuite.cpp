#include "groupsuite.h"

#include "redisserver.h"

#include <QElapsedTimer>
#include <QTest>

GroupSuite::GroupSuite(ServerGroup& group, const char* name) : m_group(group), m_name(name) {}

void GroupSuite::initTestCase()
{
    const QString missing = RedisServer::missingTools();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(m_group.start(), qPrintable(m_group.errorString()));
    qInfo("the %s was ready in %lld ms", m_name, timer.elapsed());
    initGroupSuite();
}

void GroupSuite::cleanupTestCase()
{
    m_group.stop();
}
