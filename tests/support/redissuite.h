#pragma once

#include "redisserver.h"

#include <QObject>

// The base of every suite that needs Redis: its own RedisServer, started once, emptied before
// each test function. Qt Test finds initTestCase, init, cleanup and cleanupTestCase by name on
// the test object, and a derived class that declared its own would hide these; so the slots
// stay here and a suite adds its set-up by overriding the hooks below. A QVERIFY or QSKIP in a
// hook fails or skips the test function as if it stood in the slot itself.
class RedisSuite : public QObject
{
    Q_OBJECT

protected:
    // Once, after the server has started, before the first test function.
    virtual void initSuite() {}
    // After the FLUSHALL, before each test function (and before each of its data rows).
    virtual void initTest() {}
    // After each test function, also a failed one.
    virtual void cleanupTest() {}

    RedisServer m_server;

private slots:
    // Skips the whole suite when redis-server or redis-cli is not installed
    // (RedisServer::missingTools()).
    void initTestCase();
    // A test that stopped, killed or froze the server leaves it that way: the next one gets
    // it running, answering and empty.
    void init();
    void cleanup();
    void cleanupTestCase();
};
