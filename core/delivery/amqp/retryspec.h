#pragma once

#include "amqpurl.h"

#include <string>

namespace delayq::amqp {

// What a --retry-from URL says (docs/targets/amqp-retry.md):
//   amqp[s]://[user[:password]@]host[:port][/vhost]?queue=DLQ[&declare=1]
//   [&backoff=5s,20s,30s][&max_attempts=4][&prefetch=N][&max_message_size=BYTES][&TLS keys]
// The broker part is read by parseAmqpUrl, so credentials, vhost and TLS mean what they mean
// for the amqp target; there is no exchange= (each message goes back to its own).
struct RetrySpec
{
    AmqpUrl broker;
    std::string queue;    // the dead-letter queue consumed
    bool declare = false; // declare=1: declared durable when missing; else it must exist
    std::string backoff;  // Queue::normalizeBackoff form: "5000,20000,30000" or "exp:B:M"
    int maxAttempts = 4;  // processing attempts: the first delivery and 3 retries
    int prefetch = 200;   // unacked dead letters in hand at once
};

// Throws Error(InvalidArgument) naming what is wrong.
RetrySpec parseRetrySpec(const std::string& spec);

// The delay before the retry that follows the `deaths`-th death (1 for the first), in ms.
long long retryDelayMs(const std::string& backoff, int deaths);

} // namespace delayq::amqp
