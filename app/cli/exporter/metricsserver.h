#pragma once

#include <chrono>
#include <functional>
#include <string>

struct MHD_Daemon;

namespace cli {

// The HTTP side of `delayq exporter`, on GNU libmicrohttpd: event-driven threads (epoll), so a
// client that sends half a request, or nothing, holds no thread and stalls no other scrape;
// such a client is closed after the client timeout, and a request whose line and headers do
// not fit in 32 KiB is answered 431 and closed.
class MetricsServer
{
public:
    struct Response
    {
        unsigned status = 200;
        std::string contentType;
        std::string body;
    };

    // metrics: renders the body of GET /metrics; called from the server's threads, at once.
    MetricsServer(std::function<std::string()> metrics, std::chrono::seconds clientTimeout);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    // Binds host:port (port "0": any free one) and starts serving. Throws std::runtime_error
    // naming the address and the cause (in use, no such host, no permission).
    void start(const std::string& host, const std::string& port);
    // Stops accepting, waits for requests in progress; the destructor does it too.
    void stop();
    // "http://127.0.0.1:9464/metrics", with the port bound.
    const std::string& url() const { return m_url; }

    // What the server answers to a method and path (the query string already cut off).
    Response respond(const std::string& method, const std::string& path) const;

private:
    int bindListener(const std::string& host, const std::string& port);

    std::function<std::string()> m_metrics;
    std::chrono::seconds m_clientTimeout;
    MHD_Daemon* m_daemon = nullptr;
    std::string m_url;
};

} // namespace cli
