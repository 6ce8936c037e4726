#include "bench/benchendpoint.h"

#include <microhttpd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdexcept>

namespace cli {

namespace {

// Two event loops, one per core of the machine the bench is meant for.
constexpr unsigned kThreads = 2;

MHD_Result onRequest(void* cls, MHD_Connection* connection, const char* /*url*/,
                     const char* /*method*/, const char* /*version*/, const char* /*uploadData*/,
                     size_t* uploadDataSize, void** state)
{
    // As in the exporter (metricsserver.cpp): the first call sees the headers, the next ones
    // the body (dropped), the last one answers, which keeps the connection alive.
    static int seen = 0;
    if (*state == nullptr) {
        *state = &seen;
        return MHD_YES;
    }
    if (*uploadDataSize != 0) {
        *uploadDataSize = 0;
        return MHD_YES;
    }
    static MHD_Response* const empty =
        MHD_create_response_from_buffer(0, const_cast<char*>(""), MHD_RESPMEM_PERSISTENT);
    static_cast<BenchEndpoint*>(cls)->answered();
    return MHD_queue_response(connection, MHD_HTTP_NO_CONTENT, empty);
}

} // namespace

BenchEndpoint::BenchEndpoint()
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0; // a free one
    m_daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, nullptr, nullptr, &onRequest, this,
                                MHD_OPTION_SOCK_ADDR, &address, MHD_OPTION_THREAD_POOL_SIZE,
                                kThreads, MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_END);
    if (!m_daemon)
        throw std::runtime_error("cannot start the bench's HTTP endpoint on 127.0.0.1");
    const MHD_DaemonInfo* info = MHD_get_daemon_info(m_daemon, MHD_DAEMON_INFO_BIND_PORT);
    m_url = "http://127.0.0.1:" + std::to_string(info ? info->port : 0) + "/hook";
}

BenchEndpoint::~BenchEndpoint()
{
    MHD_stop_daemon(m_daemon);
}

} // namespace cli
