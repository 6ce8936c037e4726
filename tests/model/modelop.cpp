#include "modelop.h"

#include <cstdio>
#include <random>
#include <utility>

namespace {

struct Weighted
{
    ModelOp::Kind kind;
    int weight;
};

// Everyday operations often, operators' ones now and then, a purge rarely.
constexpr Weighted kWeights[] = {
    {ModelOp::Kind::PushNx, 16},      {ModelOp::Kind::PushReplace, 5},
    {ModelOp::Kind::Claim, 14},       {ModelOp::Kind::Ack, 9},
    {ModelOp::Kind::Nack, 7},         {ModelOp::Kind::Extend, 3},
    {ModelOp::Kind::Kill, 3},         {ModelOp::Kind::Cancel, 4},
    {ModelOp::Kind::Reschedule, 4},   {ModelOp::Kind::Requeue, 3},
    {ModelOp::Kind::DeleteDead, 2},   {ModelOp::Kind::Purge, 1},
    {ModelOp::Kind::ReshardStart, 2}, {ModelOp::Kind::ReshardStep, 7},
    {ModelOp::Kind::ScheduleTick, 3}, {ModelOp::Kind::Pause, 2},
    {ModelOp::Kind::PlainAdd, 4},     {ModelOp::Kind::PlainLease, 3},
    {ModelOp::Kind::PlainSettle, 3},  {ModelOp::Kind::Import, 2},
    {ModelOp::Kind::Limit, 2},        {ModelOp::Kind::Order, 2},
    {ModelOp::Kind::PushDebounce, 5}, {ModelOp::Kind::DedupWindow, 2},
    {ModelOp::Kind::DeadBound, 2},    {ModelOp::Kind::Restore, 4},
    {ModelOp::Kind::Upgrade, 2},      {ModelOp::Kind::Wait, 4},
};

const char* name(ModelOp::Kind kind)
{
    switch (kind) {
    case ModelOp::Kind::PushNx:
        return "push-nx";
    case ModelOp::Kind::PushReplace:
        return "push-replace";
    case ModelOp::Kind::Claim:
        return "claim";
    case ModelOp::Kind::Ack:
        return "ack";
    case ModelOp::Kind::Nack:
        return "nack";
    case ModelOp::Kind::Extend:
        return "extend";
    case ModelOp::Kind::Kill:
        return "kill-worker";
    case ModelOp::Kind::Cancel:
        return "cancel";
    case ModelOp::Kind::Reschedule:
        return "reschedule";
    case ModelOp::Kind::Requeue:
        return "requeue";
    case ModelOp::Kind::DeleteDead:
        return "delete-dead";
    case ModelOp::Kind::Purge:
        return "purge";
    case ModelOp::Kind::ReshardStart:
        return "reshard-start";
    case ModelOp::Kind::ReshardStep:
        return "reshard-step";
    case ModelOp::Kind::Import:
        return "import";
    case ModelOp::Kind::ScheduleTick:
        return "schedule-tick";
    case ModelOp::Kind::Pause:
        return "pause-or-resume";
    case ModelOp::Kind::Limit:
        return "limit";
    case ModelOp::Kind::Order:
        return "order";
    case ModelOp::Kind::PushDebounce:
        return "push-debounce";
    case ModelOp::Kind::DedupWindow:
        return "dedup-window";
    case ModelOp::Kind::DeadBound:
        return "dead-bound";
    case ModelOp::Kind::Restore:
        return "restore";
    case ModelOp::Kind::Upgrade:
        return "upgrade";
    case ModelOp::Kind::PlainAdd:
        return "plain-add";
    case ModelOp::Kind::PlainLease:
        return "plain-lease";
    case ModelOp::Kind::PlainSettle:
        return "plain-settle";
    case ModelOp::Kind::Wait:
        return "wait";
    }
    return "?";
}

} // namespace

std::string ModelOp::text() const
{
    return std::string(name(kind)) + "(" + std::to_string(a) + "," + std::to_string(b) + "," +
           std::to_string(c) + ")";
}

std::vector<ModelOp> ModelOp::parse(const std::string& text)
{
    std::vector<ModelOp> ops;
    size_t at = 0;
    while ((at = text.find('(', at)) != std::string::npos) {
        size_t start = text.find_last_of(" \n\t", at);
        start = start == std::string::npos ? 0 : start + 1;
        const std::string word = text.substr(start, at - start);
        ModelOp op;
        unsigned long long a = 0, b = 0, c = 0;
        if (std::sscanf(text.c_str() + at, "(%llu,%llu,%llu)", &a, &b, &c) == 3)
            for (int k = 0; k <= static_cast<int>(Kind::Wait); ++k)
                if (word == name(static_cast<Kind>(k))) {
                    ops.push_back({static_cast<Kind>(k), static_cast<uint32_t>(a),
                                   static_cast<uint32_t>(b), static_cast<uint32_t>(c)});
                    break;
                }
        ++at;
    }
    return ops;
}

std::vector<ModelOp> ModelOp::generate(uint64_t seed, int count, bool sharding)
{
    std::mt19937_64 random(seed);
    int total = 0;
    for (const auto& w : kWeights)
        total += w.weight;
    std::vector<ModelOp> ops;
    while (static_cast<int>(ops.size()) < count) {
        int pick = static_cast<int>(random() % static_cast<uint64_t>(total));
        Kind kind = Kind::Wait;
        for (const auto& w : kWeights) {
            if (pick < w.weight) {
                kind = w.kind;
                break;
            }
            pick -= w.weight;
        }
        if (!sharding && (kind == Kind::ReshardStart || kind == Kind::ReshardStep))
            continue;
        // Each shard keeps its share of the dead bound: the model follows it on one shard.
        if (sharding && kind == Kind::DeadBound)
            continue;
        ops.push_back({kind, static_cast<uint32_t>(random()), static_cast<uint32_t>(random()),
                       static_cast<uint32_t>(random())});
    }
    return ops;
}
