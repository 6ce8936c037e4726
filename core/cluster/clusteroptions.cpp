#include <delayq/clusteroptions.h>

#include "transport/urltext.h"

namespace delayq {

std::string ClusterOptions::seedList() const
{
    return UrlText::hostList(seeds);
}

} // namespace delayq
