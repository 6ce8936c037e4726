#include <delayq/clusteroptions.h>

namespace delayq {

std::string ClusterOptions::seedList() const
{
    std::string list;
    for (const auto& seed : seeds) {
        if (!list.empty())
            list += ',';
        const bool v6 = seed.host.find(':') != std::string::npos;
        list += (v6 ? "[" + seed.host + "]" : seed.host) + ":" + std::to_string(seed.port);
    }
    return list;
}

} // namespace delayq
