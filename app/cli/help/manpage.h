#pragma once

#include <string>

namespace cli {

// delayq(1) in roff, made from the --help texts (usage.h), for `delayq --generate man`.
std::string manPage();

// Text as roff shows it literally: backslashes, minus signs, a leading dot or quote, "…".
std::string roffEscape(const std::string& text);

} // namespace cli
