#pragma once

#include <atomic>
#include <thread>

// Counts the round trips of a synchronous Redis client (tst_roundtrips): a TCP proxy on
// loopback that forwards to 127.0.0.1:targetPort and counts each time the client starts
// sending after the server last spoke. A pipeline, however many commands and writes it takes,
// is one round trip; so is a single command. One client connection at a time.
class RoundTripProxy
{
public:
    explicit RoundTripProxy(int targetPort);
    ~RoundTripProxy();
    RoundTripProxy(const RoundTripProxy&) = delete;
    RoundTripProxy& operator=(const RoundTripProxy&) = delete;

    int port() const { return m_port; }
    long long roundTrips() const { return m_roundTrips; }

private:
    void run();
    // Forwards one accepted connection until either end closes or the proxy stops.
    void forward(int client);

    int m_listen = -1;
    int m_port = 0;
    int m_targetPort = 0;
    std::atomic<bool> m_stopping{false};
    std::atomic<long long> m_roundTrips{0};
    std::thread m_thread;
};
