#include <delayq/sentineloptions.h>

#include "urltext.h"

namespace delayq {

std::string SentinelOptions::nodeList() const
{
    return UrlText::hostList(nodes);
}

} // namespace delayq
