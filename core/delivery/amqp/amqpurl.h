#pragma once

#include <delayq/tlsoptions.h>

#include <optional>
#include <string>
#include <vector>

namespace delayq::amqp {

// What a task's message carries besides its body, as the URL's query sets it
// (docs/targets/amqp.md, "Message properties"). The defaults are what went out before these
// keys existed.
struct MessageSettings
{
    // A task field a header can carry: task_header.NAME=id|attempt|queue|due.
    enum class TaskField
    {
        Id,
        Attempt,
        Queue,
        Due
    };
    struct Header
    {
        std::string name;
        std::string value; // a static header's text
        TaskField field{}; // a task header's field
        bool fromTask = false;
    };
    std::optional<std::string> contentType; // content_type=; none: from the payload
    std::string type;                       // type=; empty: no type property
    std::vector<Header> headers;            // header.NAME= and task_header.NAME=, in URL order
    bool delayqHeaders = true;              // delayq_headers=0 leaves out the x-delayq-* four
    std::optional<int> priority;            // priority=0..255
    std::optional<std::string> expiration;  // expiration=MS (digits, as RabbitMQ wants them)
    // Bytes the settings add to a message's properties, at most (with task headers of the id
    // or the queue counted by their size at publish): for the frame check in amqpmessage.cpp.
    size_t staticSize = 0;
    int idHeaders = 0;    // task_header.NAME=id headers: each holds the whole id once more
    int queueHeaders = 0; // task_header.NAME=queue headers
};

// What an amqp:// or amqps:// --handler URL says (docs/targets/amqp.md):
//   amqp[s]://[user[:password]@]host[:port][/vhost]?exchange=E[&routing_key=K]
//   [&max_message_size=BYTES][&message property keys][&dead_exchange=D[&dead_routing_key=R]]
//   [&TLS keys]
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
    MessageSettings message;
    // dead_exchange=: where a task that died in Redis is published too, with its error in
    // x-delayq-error (docs/targets/amqp.md, "Dead tasks to a dead-letter exchange"); nullopt:
    // nowhere. dead_routing_key=: its routing key; nullopt: the URL's routing_key.
    std::optional<std::string> deadExchange;
    std::optional<std::string> deadRoutingKey;
};

// Throws Error(InvalidArgument) naming what is wrong: a malformed URL, an unknown key, no
// exchange.
AmqpUrl parseAmqpUrl(const std::string& spec);

// The URL as it may be printed: the password becomes "***". A URL that does not parse is
// cut at its user info, so that nothing after "//" and before "@" is ever shown.
std::string printableAmqpUrl(const std::string& spec);

} // namespace delayq::amqp
