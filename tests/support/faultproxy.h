#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

// A TCP proxy on loopback that puts a bad network between a client and a server, for the
// fault suites (this machine has no tc netem). It listens on a free 127.0.0.1 port and
// forwards each accepted connection to 127.0.0.1:targetPort, with, as set at any moment:
// - latency with jitter, each way (every chunk delivered at its own due time, in order);
// - a bandwidth limit, each way;
// - random resets: one client chunk in N ends its connection with a TCP RST, half the time
//   before the chunk reaches the server (not applied) and half the time after (applied, the
//   reply lost), the two cases a client must tell apart from each other by design;
// - a blackhole (a partition): connections are accepted and bytes taken, nothing is
//   delivered; heal() delivers what was held to the ends still open, as TCP's retransmissions
//   would. Every loop waits at most 20 ms, so the destructor ends it all within that.
// Loopback only: it listens on 127.0.0.1 and connects to 127.0.0.1.
class FaultProxy
{
public:
    explicit FaultProxy(int targetPort);
    ~FaultProxy();
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    int port() const { return m_port; }
    std::string url() const; // redis://127.0.0.1:PORT

    void setLatency(std::chrono::milliseconds mean, std::chrono::milliseconds jitter);
    void setBandwidth(long long bytesPerSecond); // 0: unlimited
    void setResetOneIn(int n);                   // 0: never
    void blackhole();
    void heal();

    long long connections() const { return m_connections; } // accepted so far
    long long resets() const { return m_resets; }           // connections reset so far

private:
    struct Link;
    void acceptLoop();
    void pump(const std::shared_ptr<Link>& link);
    std::chrono::steady_clock::duration nextDelay();
    bool resetNow(bool& afterForwarding);

    int m_listen = -1;
    int m_port = 0;
    int m_targetPort = 0;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_blackhole{false};
    std::atomic<long long> m_meanUs{0};
    std::atomic<long long> m_jitterUs{0};
    std::atomic<long long> m_bytesPerSecond{0};
    std::atomic<int> m_resetOneIn{0};
    std::atomic<long long> m_connections{0};
    std::atomic<long long> m_resets{0};
    std::mutex m_randomLock;
    std::mt19937_64 m_random{20261205};
    std::thread m_acceptor;
};
