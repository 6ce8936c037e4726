// forwarder URL QUEUE TARGET COUNT: hands COUNT due tasks of QUEUE to TARGET (a RabbitMQ URL,
// a webhook URL or pipe:CMD, as `delayq work --handler` takes), then prints how many were
// delivered and exits. Links delayq::delivery as well as delayq::core (find_package(delayq
// COMPONENTS delivery)).
#include <delayq/deliveries.h>
#include <delayq/error.h>
#include <delayq/worker.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: forwarder URL QUEUE TARGET COUNT\n");
        return 2;
    }
    try {
        delayq::WorkerOptions options;
        options.connection = delayq::ConnectionOptions::fromUrl(argv[1]);
        options.queue = argv[2];
        options.maxTasks = std::atoll(argv[4]);
        delayq::DeliveryOptions delivery;
        delivery.queue = options.queue;
        // Before anything is claimed: a target that refuses is an error, not lost tasks.
        delayq::checkDelivery(argv[3], delivery);
        delayq::Worker worker(options, delayq::deliveryFor(argv[3], delivery));
        worker.start();
        if (!worker.wait(std::chrono::seconds(60))) {
            worker.stop();
            std::fprintf(stderr, "forwarder: gave up after 60 s\n");
            return 1;
        }
        const auto counters = worker.counters();
        std::printf("delivered %lld\n", counters.acked);
        return counters.acked == options.maxTasks ? 0 : 1;
    } catch (const delayq::Error& e) {
        std::fprintf(stderr, "forwarder: %s\n", e.what());
        return 1;
    }
}
