#include "commands/commands.h"
#include "output/jsonwriter.h"
#include "output/textoutput.h"

#include <delayq/error.h>
#include <delayq/shardmover.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace cli {

namespace {

std::string progressLine(const delayq::MoveProgress& p)
{
    // Shards numbered from 0, as `delayq shards` lists them.
    return "moved " + std::to_string(p.moved) + " tasks; looking at shard " +
           std::to_string(p.shard) + " (shards 0-" + std::to_string(p.shards - 1) + "), pass " +
           std::to_string(p.pass);
}

void printProgressJson(Context& ctx, const std::string& queue, const delayq::MoveProgress& p)
{
    JsonWriter j;
    j.beginObject()
        .field("queue", queue)
        .field("from", static_cast<long long>(p.from))
        .field("to", static_cast<long long>(p.to))
        .field("moved", p.moved)
        .field("finished", p.finished)
        .endObject();
    ctx.printJson(j);
}

} // namespace

int runReshard(Context& ctx)
{
    ctx.args().parse({{"shards", true}, {"batch", true}, {"steps", true}}, 1, 1);
    if (ctx.args().value("shards").empty())
        throw UsageError(
            "reshard needs --shards N (1 to 64): how many shards the queue is to have");
    const int count = static_cast<int>(ctx.args().number("shards", 1, 64, 1));
    const int batch = static_cast<int>(ctx.args().number("batch", 1, 100, 100));
    const long long steps = ctx.args().number("steps", 0, 1'000'000'000, 0);
    delayq::Queue queue = ctx.queue();
    delayq::ShardMover mover(queue);
    const int before = queue.reloadLayout().count;
    delayq::MoveProgress p = mover.start(count);
    auto said = std::chrono::steady_clock::now();
    int lastPass = p.pass;
    long long held = 0; // in the last pass that ended
    for (long long n = 0; !p.finished && (steps == 0 || n < steps); ++n) {
        p = mover.step(batch);
        // A pass that could move nothing waits (for tasks workers hold outside their home,
        // or for producers' copies of the layout to be the new one): looking again at once
        // would only spin.
        if (p.waitMs > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(p.waitMs));
        if (p.pass != lastPass)
            held = p.held;
        lastPass = p.pass;
        if (!ctx.json() && std::chrono::steady_clock::now() - said > std::chrono::seconds(1)) {
            std::fprintf(stderr, "resharding %s %d -> %d: %s%s\n", printable(queue.name()).c_str(),
                         p.from, p.to, progressLine(p).c_str(),
                         held > 0 ? (", waiting for " + std::to_string(held) +
                                     " tasks workers hold outside their home shard")
                                        .c_str()
                                  : "");
            said = std::chrono::steady_clock::now();
        }
    }
    if (ctx.json()) {
        printProgressJson(ctx, queue.name(), p);
    } else if (p.finished && before == count && p.moved == 0) {
        ctx.print(queue.name() + " already has " + std::to_string(count) +
                  (count == 1 ? " shard" : " shards") + ": nothing to move\n");
    } else if (p.finished) {
        ctx.print("resharded " + queue.name() + " to " + std::to_string(p.to) +
                  " shards: " + std::to_string(p.moved) + " tasks moved\n");
    } else {
        ctx.print("resharding " + queue.name() + " " + std::to_string(p.from) + " -> " +
                  std::to_string(p.to) + " stopped after " + std::to_string(steps) +
                  " steps: " + progressLine(p) + " (run it again to go on)\n");
    }
    return ExitOk;
}

int runShards(Context& ctx)
{
    ctx.args().parse({}, 1, 1);
    delayq::Queue queue = ctx.queue();
    const delayq::ShardLayout layout = queue.reloadLayout();
    delayq::Connection& connection = queue.connection();
    std::vector<std::vector<std::string>> reads;
    for (size_t s = 0; s < layout.tags.size(); ++s)
        for (const auto& key :
             {queue.shardKeys(s).pending(), queue.shardKeys(s).active(), queue.shardKeys(s).dead()})
            reads.push_back({"ZCARD", key});
    const auto sizes = connection.pipeline(reads);
    const auto count = [&](size_t i) {
        return sizes[i].isError() ? std::string("?") : std::to_string(sizes[i].toInteger());
    };
    TextTable table({"SHARD", "TAG", "NODE", "PENDING", "ACTIVE", "DEAD", ""});
    JsonWriter j;
    j.beginObject()
        .field("queue", queue.name())
        .field("shards", static_cast<long long>(layout.count));
    j.key("tags").beginArray();
    for (size_t s = 0; s < layout.tags.size(); ++s) {
        const std::string node = connection.nodeForKey(queue.shardKeys(s).pending());
        const bool retired = static_cast<int>(s) >= layout.count;
        table.addRow({std::to_string(s), printable(layout.tags[s]), printable(node), count(3 * s),
                      count(3 * s + 1), count(3 * s + 2), retired ? "(retired)" : ""});
        j.beginObject()
            .field("shard", static_cast<long long>(s))
            .field("tag", layout.tags[s])
            .field("node", node)
            .field("retired", retired);
        const char* names[] = {"pending", "active", "dead"};
        for (size_t k = 0; k < 3; ++k) {
            const delayq::Reply& size = sizes[3 * s + k];
            j.key(names[k]);
            if (size.isError())
                j.null();
            else
                j.value(size.toInteger());
        }
        j.endObject();
    }
    j.endArray().field("moving", layout.moving()).endObject();
    if (ctx.json()) {
        ctx.printJson(j);
        return ExitOk;
    }
    ctx.print(table.render());
    if (layout.moving()) {
        delayq::ShardMover mover(queue);
        const delayq::MoveProgress p = mover.progress();
        ctx.print("moving tasks from " + std::to_string(p.from) + " to " + std::to_string(p.to) +
                  " shards: " + progressLine(p) + " (delayq reshard " + printable(queue.name()) +
                  " --shards " + std::to_string(p.to) + " goes on)\n");
    }
    return ExitOk;
}

} // namespace cli
