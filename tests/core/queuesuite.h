#pragma once

#include "redissuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QByteArray>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

// The fixture of the tst_queue* suites: before each test a fresh connection to the suite's
// own server and the native queue "orders" on it.
class QueueSuite : public RedisSuite
{
    Q_OBJECT

protected:
    void initTest() override;
    void cleanupTest() override;

    std::unique_ptr<delayq::Connection> m_conn;
    std::unique_ptr<delayq::Queue> m_queue;
    std::string m_message; // of the last EXPECT_ERROR
};

delayq::PushRequest request(const std::string& payload, long long delayMs = 0,
                            const std::string& id = {});
std::vector<std::string> idsOf(const std::vector<delayq::Task>& tasks);
// Strings as a QStringList, so QCOMPARE prints both sides when they differ.
QStringList qt(const std::vector<std::string>& v);
std::vector<delayq::IdResult::Status> statusesOf(const std::vector<delayq::IdResult>& results);

// Every key of the database with its type and value, for "nothing changed" checks that do not
// go through the code under test.
QByteArray snapshot(const RedisServer& server);

// Polls f until it holds. Unlike QTRY_VERIFY it runs f exactly once per try, so f may have
// side effects (a claim, a reap).
bool eventually(const std::function<bool()>& f, int timeoutMs = 5000);
