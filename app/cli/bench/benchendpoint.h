#pragma once

#include <atomic>
#include <string>

struct MHD_Daemon;

namespace cli {

// The webhook bench's endpoint: libmicrohttpd on a free loopback port, in this process,
// answering every request 204 on kept-alive connections as quickly as it can, so that the
// bench measures delayq's side of a webhook.
class BenchEndpoint
{
public:
    // Throws std::runtime_error when it cannot listen.
    BenchEndpoint();
    ~BenchEndpoint();
    BenchEndpoint(const BenchEndpoint&) = delete;
    BenchEndpoint& operator=(const BenchEndpoint&) = delete;

    // http://127.0.0.1:PORT/hook
    const std::string& url() const { return m_url; }
    long long requests() const { return m_requests; }
    // Called from the server's threads for each complete request.
    void answered() { ++m_requests; }

private:
    MHD_Daemon* m_daemon = nullptr;
    std::string m_url;
    std::atomic<long long> m_requests{0};
};

} // namespace cli
