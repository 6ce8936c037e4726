// producer URL QUEUE COUNT: pushes COUNT tasks, due in 0 to 2 s, in one batch, and prints
// how many were created. Uses only the installed public API (<delayq/...>).
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/version.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: producer URL QUEUE COUNT   (delayq %s)\n", DELAYQ_VERSION);
        return 2;
    }
    const int count = std::atoi(argv[3]);
    if (count < 1 || count > 100000) {
        std::fprintf(stderr, "producer: COUNT must be from 1 to 100000\n");
        return 2;
    }
    try {
        delayq::Connection connection(delayq::ConnectionOptions::fromUrl(argv[1]));
        delayq::Queue queue(connection, argv[2]);
        std::vector<delayq::PushRequest> requests;
        for (int i = 0; i < count; ++i) {
            delayq::PushRequest request;
            request.payload = "{\"order\":" + std::to_string(i) + "}";
            request.delayMs = (i % 5) * 500; // spread over the next 2 s
            requests.push_back(request);
        }
        int created = 0;
        for (const auto& result : queue.pushBatch(requests))
            created += result.status == delayq::PushResult::Status::Created;
        std::printf("pushed %d\n", created);
        return created == count ? 0 : 1;
    } catch (const delayq::Error& e) {
        std::fprintf(stderr, "producer: %s\n", e.what());
        return 1;
    }
}
