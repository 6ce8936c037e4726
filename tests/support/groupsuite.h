#pragma once

#include "servergroup.h"

#include <QObject>

// The base of the suites on a deployment (a Sentinel group, a cluster): the group started once
// before the first test (the suite skipped where redis-server or redis-cli is missing, as
// RedisSuite does) and stopped after the last. As with RedisSuite, the slots stay here and a
// suite adds its own set-up by overriding initGroupSuite().
class GroupSuite : public QObject
{
    Q_OBJECT

protected:
    // group is a member of the derived suite: it is only used from initTestCase on.
    GroupSuite(ServerGroup& group, const char* name);

    // After the group is up, before the first test function.
    virtual void initGroupSuite() {}

private slots:
    void initTestCase();
    void cleanupTestCase();

private:
    ServerGroup& m_group;
    const char* m_name;
};
