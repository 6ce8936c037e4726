#pragma once

#include <delayq/connectionoptions.h>

#include <string>

// The redis+sentinel:// and rediss+sentinel:// URL forms of ConnectionOptions (see
// SentinelOptions for the grammar), kept apart from the single-server forms.
namespace delayq::sentinelurl {

// Whether the URL names a Sentinel group (by its scheme alone).
bool matches(const std::string& url);
// Throws Error(InvalidArgument) naming the bad part, never echoing a password.
ConnectionOptions parse(const std::string& url);
// Both passwords as "***".
std::string display(const ConnectionOptions& options);
// Both passwords left out; parse() of it gives back the options less the passwords.
std::string withoutPassword(const ConnectionOptions& options);

} // namespace delayq::sentinelurl
