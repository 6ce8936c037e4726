#include <delayq/sentineloptions.h>

#include "transport/urltext.h"

namespace delayq {

std::string SentinelOptions::nodeList() const
{
    return UrlText::hostList(nodes);
}

} // namespace delayq
