#include <delayq/sentineloptions.h>

namespace delayq {

std::string SentinelOptions::nodeList() const
{
    std::string list;
    for (const auto& node : nodes) {
        if (!list.empty())
            list += ',';
        const bool v6 = node.host.find(':') != std::string::npos;
        list += (v6 ? "[" + node.host + "]" : node.host) + ":" + std::to_string(node.port);
    }
    return list;
}

} // namespace delayq
