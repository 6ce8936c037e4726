#pragma once

#include "redisserver.h"
#include "servergroup.h"

#include <QString>

#include <array>
#include <memory>
#include <string>

// A Redis Sentinel deployment on loopback for one test suite: two data servers (a master and
// its replica) and three `redis-server --sentinel` processes monitoring them as "mymaster"
// with quorum 2. Every process is a RedisServer in its own temporary folder, stopped by
// stop() or the destructor, so a failed test leaves none behind.
class SentinelGroup : public ServerGroup
{
public:
    static constexpr const char* kMasterName = "mymaster";
    // How long the sentinels wait before calling an unanswering master down.
    static constexpr int kDownAfterMs = 1000;

    SentinelGroup();
    ~SentinelGroup() override;

    // Starts the five processes and waits (up to 20 s) until every sentinel knows the replica
    // and both other sentinels, so that a failover can be authorised. False with a reason in
    // errorString() otherwise.
    bool start() override;
    void stop() override;

    // redis+sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/NAME (sentinels in order).
    std::string url(const std::string& masterName = kMasterName) const;
    // Port of each sentinel and each data server.
    int sentinelPort(int i) const { return m_sentinels[static_cast<size_t>(i)]->port(); }
    RedisServer& sentinel(int i) { return *m_sentinels[static_cast<size_t>(i)]; }
    RedisServer& data(int i) { return *m_data[static_cast<size_t>(i)]; }

    // The data server sentinel 0 names as the master (nullptr when it names none of them).
    RedisServer* master();
    RedisServer* replica();
    // Waits until every running sentinel names a master other than `oldPort` and that server
    // says ROLE master; returns its port, or 0 after timeoutMs.
    int waitForNewMaster(int oldPort, int timeoutMs);
    // Waits until the replica's link to the master is up and every sentinel sees it as a
    // healthy replica (after a failover or a restart), up to timeoutMs.
    bool waitUntilReady(int timeoutMs);

    QString errorString() const override { return m_error; }

private:
    int masterPortFrom(int sentinelIndex) const;
    bool sentinelReady(int i) const;
    bool startSentinel(int i, int masterPort);

    std::array<std::unique_ptr<RedisServer>, 2> m_data;
    std::array<std::unique_ptr<RedisServer>, 3> m_sentinels;
    QString m_error;
};
