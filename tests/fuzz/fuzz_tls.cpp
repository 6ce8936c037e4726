// Arbitrary bytes as the server's side of a TLS handshake, from a listener on loopback: the
// transport must refuse them with an Error that names a cause (never crash, hang, or read
// past what arrived). Covers OpenSSL's parsing of what a hostile or broken server sends and
// our mapping of its failures (TlsTransport::failure, verifyFailure).
#include "transport/transport.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <thread>

namespace {

int listener = -1;
int port = 0;

void listenOnce()
{
    if (listener >= 0)
        return;
    listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::listen(listener, 4) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        std::abort();
    port = ntohs(addr.sin_port);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    listenOnce();
    std::thread server([data, size] {
        const int client = ::accept(listener, nullptr, nullptr);
        if (client < 0)
            return;
        (void)::send(client, data, size, MSG_NOSIGNAL);
        ::shutdown(client, SHUT_WR);
        char sink[4096];
        while (::recv(client, sink, sizeof sink, 0) > 0) {
        }
        ::close(client);
    });
    delayq::ConnectionOptions options;
    options.host = "127.0.0.1";
    options.port = port;
    options.tls.enabled = true;
    options.tls.insecure = size > 0 && (data[0] & 1) != 0; // both the checked and unchecked paths
    options.connectTimeout = std::chrono::milliseconds(2000);
    options.commandTimeout = std::chrono::milliseconds(2000);
    try {
        auto transport = delayq::Transport::open(options);
        // A handshake that arbitrary bytes completed would be a bug of its own.
        std::abort();
    } catch (const delayq::Error& e) {
        const auto code = e.code();
        if (code != delayq::ErrorCode::Tls && code != delayq::ErrorCode::Connection &&
            code != delayq::ErrorCode::Timeout)
            std::abort();
        if (std::string(e.what()).empty())
            std::abort();
    }
    server.join();
    return 0;
}
