#pragma once

#include "amqpurl.h"

#include <amqp.h>

namespace delayq::amqp {

// An amqps:// socket with the checks of rediss:// (docs/tls.md): the peer's certificate
// verified against ca= / ca_dir= (the system's CAs when neither is given) and its name
// against the host (or sni=); a client certificate with cert= and key=; insecure=1 turns
// both checks off. Throws Error(Tls) naming a file that cannot be read.
amqp_socket_t* tlsSocket(amqp_connection_state_t state, const AmqpUrl& url);

} // namespace delayq::amqp
