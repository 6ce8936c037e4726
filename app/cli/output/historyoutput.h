#pragma once

#include "output/jsonwriter.h"

#include <delayq/taskhistory.h>

#include <string>

namespace cli {

// `delayq show --history`: the task's events, one a line, oldest first (every name and text
// printable()), under a heading saying how many there are.
std::string historyText(const delayq::TaskHistory& history);
// The events as a JSON list of {at, kind, due?, who, who_base64?, text, text_base64?}, the
// *_base64 fields only when those bytes are not UTF-8.
void writeHistory(JsonWriter& j, const delayq::TaskHistory& history);

} // namespace cli
