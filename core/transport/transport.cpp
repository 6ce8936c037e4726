#include "transport/transport.h"

#include "transport/sockettransport.h"
#include "transport/tlstransport.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>

namespace delayq {

std::unique_ptr<Transport> Transport::open(const ConnectionOptions& options)
{
    const auto deadline = Clock::now() + options.connectTimeout;
    if (!options.unixSocket.empty()) {
        // Redis serves TLS on TCP ports only.
        if (options.tls.enabled)
            throw Error(ErrorCode::InvalidArgument, "TLS is not available on a unix socket");
        return SocketTransport::connectUnix(options.unixSocket, deadline);
    }
    if (options.tls.enabled)
        return TlsTransport::open(options, deadline);
    return SocketTransport::connectTcp(options.host, options.port, deadline);
}

} // namespace delayq
