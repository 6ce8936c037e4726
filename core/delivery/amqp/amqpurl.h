#pragma once

#include <delayq/tlsoptions.h>

#include <string>

namespace delayq::amqp {

// What an amqp:// or amqps:// --handler URL says (docs/targets/amqp.md):
//   amqp[s]://[user[:password]@]host[:port][/vhost]?exchange=E[&routing_key=K]
//   [&max_message_size=BYTES][&TLS keys]
struct AmqpUrl
{
    std::string host;
    int port = 5672; // 5671 for amqps://
    std::string user = "guest";
    std::string password = "guest"; // secret: never printed
    std::string vhost = "/";        // the path, %-decoded ("%2F" is "/"); empty path: "/"
    std::string exchange;           // "" (the default exchange) only when written exchange=
    std::string routingKey;
    // The broker's max_message_size (RabbitMQ's default since 3.8: 128 MiB; at most 512 MiB):
    // a task whose payload is larger fails alone, before anything of it is sent.
    long long maxMessageSize = 134217728;
    TlsOptions tls; // the same query keys as rediss:// (ca, ca_dir, cert, key, sni, insecure)
};

// Throws Error(InvalidArgument) naming what is wrong: a malformed URL, an unknown key, no
// exchange.
AmqpUrl parseAmqpUrl(const std::string& spec);

// The URL as it may be printed: the password becomes "***". A URL that does not parse is
// cut at its user info, so that nothing after "//" and before "@" is ever shown.
std::string printableAmqpUrl(const std::string& spec);

} // namespace delayq::amqp
