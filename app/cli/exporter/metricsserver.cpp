#include "exporter/metricsserver.h"

#include <microhttpd.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cli {

namespace {

// Two event loops: a scrape waiting on Redis in one leaves the other to answer the rest.
constexpr unsigned kThreads = 2;
// Beyond this many open connections new ones are refused, so idle clients cannot exhaust
// file descriptors; Prometheus uses one per target.
constexpr unsigned kMaxConnections = 256;
// A request's line and headers must fit in this; more is answered 431.
constexpr size_t kRequestMemory = 32 * 1024;

const char* kMetricsType = "text/plain; version=0.0.4; charset=utf-8";

MHD_Result onRequest(void* cls, MHD_Connection* connection, const char* url, const char* method,
                     const char* /*version*/, const char* /*uploadData*/, size_t* uploadDataSize,
                     void** state)
{
    // libmicrohttpd's idiom: the first call only sees the headers; answering from a later one,
    // after any body was read (and dropped: nothing here takes one), keeps the connection
    // alive for the next scrape instead of closing it.
    static int seen = 0;
    if (*state == nullptr) {
        *state = &seen;
        return MHD_YES;
    }
    if (*uploadDataSize != 0) {
        *uploadDataSize = 0;
        return MHD_YES;
    }
    const auto* server = static_cast<const MetricsServer*>(cls);
    const MetricsServer::Response r = server->respond(method, url);
    MHD_Response* response = MHD_create_response_from_buffer(
        r.body.size(), const_cast<char*>(r.body.data()), MHD_RESPMEM_MUST_COPY);
    if (!response)
        return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, r.contentType.c_str());
    if (r.status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    const MHD_Result queued = MHD_queue_response(connection, r.status, response);
    MHD_destroy_response(response);
    return queued;
}

std::string hostForUrl(const sockaddr_storage& address)
{
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text,
                  sizeof text);
        return std::string("[") + text + "]";
    }
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof text);
    return text;
}

int portOf(const sockaddr_storage& address)
{
    return ntohs(address.ss_family == AF_INET6
                     ? reinterpret_cast<const sockaddr_in6&>(address).sin6_port
                     : reinterpret_cast<const sockaddr_in&>(address).sin_port);
}

} // namespace

MetricsServer::MetricsServer(std::function<std::string()> metrics,
                             std::chrono::seconds clientTimeout)
    : m_metrics(std::move(metrics)), m_clientTimeout(clientTimeout)
{}

MetricsServer::~MetricsServer()
{
    stop();
}

int MetricsServer::bindListener(const std::string& host, const std::string& port)
{
    const std::string where = host + ":" + port;
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
        throw std::runtime_error("cannot listen on " + where + ": " + gai_strerror(rc));
    const int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                          found->ai_protocol);
    const int one = 1;
    const bool ok = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
                    bind(fd, found->ai_addr, found->ai_addrlen) == 0 && listen(fd, 64) == 0;
    const int error = errno;
    freeaddrinfo(found);
    if (!ok) {
        if (fd >= 0)
            close(fd);
        throw std::runtime_error("cannot listen on " + where + ": " + std::strerror(error));
    }
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length);
    m_url = "http://" + hostForUrl(bound) + ":" + std::to_string(portOf(bound)) + "/metrics";
    return fd;
}

void MetricsServer::start(const std::string& host, const std::string& port)
{
    const int fd = bindListener(host, port);
    m_daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, nullptr, nullptr, &onRequest, this,
                                MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_THREAD_POOL_SIZE, kThreads,
                                MHD_OPTION_CONNECTION_TIMEOUT,
                                static_cast<unsigned>(m_clientTimeout.count()),
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, kRequestMemory,
                                MHD_OPTION_CONNECTION_LIMIT, kMaxConnections, MHD_OPTION_END);
    if (!m_daemon) {
        close(fd);
        throw std::runtime_error("cannot start the HTTP server on " + host + ":" + port);
    }
}

void MetricsServer::stop()
{
    if (m_daemon) {
        MHD_stop_daemon(m_daemon); // closes the listening socket too
        m_daemon = nullptr;
    }
}

MetricsServer::Response MetricsServer::respond(const std::string& method,
                                               const std::string& path) const
{
    const char* text = "text/plain; charset=utf-8";
    if (method != MHD_HTTP_METHOD_GET && method != MHD_HTTP_METHOD_HEAD)
        return {MHD_HTTP_METHOD_NOT_ALLOWED, text, "only GET and HEAD are served\n"};
    if (path == "/metrics")
        return {MHD_HTTP_OK, kMetricsType, m_metrics()};
    if (path == "/")
        return {MHD_HTTP_OK, text, "delayq exporter: the metrics are at /metrics\n"};
    return {MHD_HTTP_NOT_FOUND, text, "not found: this server serves /metrics\n"};
}

} // namespace cli
