#pragma once

#include <delayq/task.h>
#include <delayq/worker.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace delayq {

// Where a worker hands its due tasks on (docs/delivery.md): a RabbitMQ exchange, a webhook,
// a long-lived consumer process. Unlike a Handler, which runs one task at a time, a Delivery
// gets the tasks of a claim together, so it can keep many in flight (publishes awaiting their
// confirms, requests on kept-alive connections) and the round trip is not paid per task.
// One Delivery per worker thread, made on that thread and used on it only.
class Delivery
{
public:
    virtual ~Delivery() = default;

    // Hands over the tasks (one claim's, in due order) and returns one result per task, in
    // the same order, once each has its answer: Ack only when the target has confirmed it
    // (the broker's basic.ack, a 2xx, the consumer's "ack"). Never throws: a refusal, a
    // timeout or a lost connection is that task's Fail with the reason (reconnecting is the
    // Delivery's own business, on the next call). May run long: the worker renews the leases.
    virtual std::vector<HandlerResult> deliver(const std::vector<ClaimedTask>& tasks) = 0;

    // True while the target asks publishers to wait (RabbitMQ's connection.blocked): the
    // worker claims nothing more until it turns false. May read from the target.
    virtual bool blocked() { return false; }

    // Called on the delivery's thread once a task this target failed is dead in Redis (its
    // attempts spent, or a Dead result), with the error Redis keeps, so that the target may
    // report it where its consumers look too (amqp://…&dead_exchange=). The task is dead
    // whatever this does: it never throws and returns within the answer timeout.
    virtual void died(const ClaimedTask& /*task*/, const std::string& /*error*/) {}
};

// Settings every delivery target shares, and the ones of each kind. The target itself (URL or
// command) is the spec given to deliveryFor().
struct DeliveryOptions
{
    std::string queue;      // for the headers / environment a consumer sees
    std::string workerName; // the same, and for log lines
    // True once the worker was stopped at once: a waiting delivery gives up (its tasks fail
    // with that reason and the worker hands them back).
    std::function<bool()> aborted;
    // A line for the operator's log (blocked / unblocked, reconnecting, a consumer restarted).
    // Called from worker threads, several at once: thread-safe and short.
    std::function<void(const std::string&)> notice;

    // --- http(s): webhooks
    std::string httpMethod = "POST";
    std::vector<std::string> httpHeaders; // "Name: value"
    long long httpTimeoutMs = 10000;      // per request
    std::string signingSecret;            // empty: unsigned (Standard Webhooks when set)
    std::string httpCaFile;               // https: trust these CAs instead of the system's

    // --- every target: how long one task may take before it counts as failed (ms); the
    // worker's lease by default (a pipe consumer that stops answering is killed after it).
    long long answerTimeoutMs = 30000;
};

} // namespace delayq
