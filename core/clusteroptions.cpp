#include <delayq/clusteroptions.h>

#include "urltext.h"

namespace delayq {

std::string ClusterOptions::seedList() const
{
    return UrlText::hostList(seeds);
}

} // namespace delayq
