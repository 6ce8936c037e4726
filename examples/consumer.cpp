// consumer URL QUEUE COUNT: runs a 2-thread worker until it has acked COUNT tasks (waiting
// for the delayed ones), then prints how many it acked and exits. Uses only the installed
// public API (<delayq/...>).
#include <delayq/error.h>
#include <delayq/worker.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: consumer URL QUEUE COUNT\n");
        return 2;
    }
    try {
        delayq::WorkerOptions options;
        options.connection = delayq::ConnectionOptions::fromUrl(argv[1]);
        options.queue = argv[2];
        options.concurrency = 2;
        options.maxTasks = std::atoll(argv[3]);
        std::atomic<long long> orders{0};
        // The task's work: here, count the payloads that look like an order.
        delayq::Worker worker(options, [&](const delayq::ClaimedTask& task) {
            if (task.payload.rfind("{\"order\":", 0) != 0)
                return delayq::HandlerResult::fail("not an order");
            ++orders;
            return delayq::HandlerResult::ack();
        });
        worker.start();
        if (!worker.wait(std::chrono::seconds(60))) {
            worker.stop();
            std::fprintf(stderr, "consumer: gave up after 60 s\n");
            return 1;
        }
        const auto counters = worker.counters();
        std::printf("acked %lld\n", counters.acked);
        return counters.acked == options.maxTasks && orders == counters.acked ? 0 : 1;
    } catch (const delayq::Error& e) {
        std::fprintf(stderr, "consumer: %s\n", e.what());
        return 1;
    }
}
