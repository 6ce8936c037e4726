#include <delayq/shardlayout.h>

#include "cluster/keyslot.h"
#include "records/taskrecord.h"

#include <delayq/keys.h>

#include <algorithm>
#include <sstream>

namespace delayq {

int ShardLayout::hashOf(const std::string& id)
{
    return keyslot::crc16(id);
}

int ShardLayout::homeOf(const std::string& id) const
{
    return count <= 1 ? 0 : hashOf(id) % count;
}

int ShardLayout::formerHomeOf(const std::string& id) const
{
    if (!moving())
        return homeOf(id);
    const size_t gt = move.find('>');
    const long long from =
        gt == std::string::npos ? 1 : wholeNumber(move.substr(0, gt)).value_or(1);
    const int shards =
        static_cast<int>(std::clamp<long long>(from, 1, static_cast<long long>(tags.size())));
    return shards <= 1 ? 0 : hashOf(id) % shards;
}

ShardLayout ShardLayout::fromConfig(const std::string& queue, const std::string& shards,
                                    const std::string& tags, const std::string& move,
                                    const std::string& moved)
{
    ShardLayout layout;
    layout.tags.push_back(queue);
    std::istringstream words(tags);
    std::string tag;
    for (bool first = true; words >> tag; first = false) {
        if (first && tag == queue)
            continue;
        if (tag == queue || !Keys::isShardTag(queue, tag) ||
            std::find(layout.tags.begin(), layout.tags.end(), tag) != layout.tags.end() ||
            static_cast<int>(layout.tags.size()) >= kMaxShards)
            continue;
        layout.tags.push_back(tag);
    }
    const long long n = wholeNumber(shards).value_or(1);
    layout.count =
        static_cast<int>(std::clamp<long long>(n, 1, static_cast<long long>(layout.tags.size())));
    layout.move = move;
    layout.moved = wholeNumber(moved).value_or(0);
    return layout;
}

std::string ShardLayout::tagsField() const
{
    std::string out;
    for (const auto& tag : tags)
        out += (out.empty() ? "" : " ") + tag;
    return out;
}

} // namespace delayq
