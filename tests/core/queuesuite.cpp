#include "queuesuite.h"

#include <QDeadlineTimer>
#include <QTest>

using namespace delayq;

void QueueSuite::initTest()
{
    m_conn = std::make_unique<Connection>(ConnectionOptions::fromUrl(m_server.unixUrl()));
    m_queue = std::make_unique<Queue>(*m_conn, "orders");
}

void QueueSuite::cleanupTest()
{
    m_queue.reset();
    m_conn.reset();
}

PushRequest request(const std::string& payload, long long delayMs, const std::string& id)
{
    PushRequest r;
    r.payload = payload;
    r.delayMs = delayMs;
    r.id = id;
    return r;
}

QStringList qt(const std::vector<std::string>& v)
{
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

std::vector<std::string> idsOf(const std::vector<Task>& tasks)
{
    std::vector<std::string> ids;
    for (const auto& t : tasks)
        ids.push_back(t.id);
    return ids;
}

std::vector<IdResult::Status> statusesOf(const std::vector<IdResult>& results)
{
    std::vector<IdResult::Status> out;
    for (const auto& r : results)
        out.push_back(r.status);
    return out;
}

QByteArray snapshot(const RedisServer& server)
{
    return server.cli({"DEBUG", "DIGEST"});
}

bool eventually(const std::function<bool()>& f, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!f()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(2);
    }
    return true;
}
