#pragma once

#include <delayq/connectionoptions.h>

#include <string>

// The redis+cluster:// and rediss+cluster:// URL forms of ConnectionOptions (see
// ClusterOptions for the grammar), kept apart from the single-server forms.
namespace delayq::clusterurl {

// Whether the URL names a cluster seed list (by its scheme alone).
bool matches(const std::string& url);
// Throws Error(InvalidArgument) naming the bad part, never echoing a password.
ConnectionOptions parse(const std::string& url);
// The password as "***".
std::string display(const ConnectionOptions& options);
// The password left out; parse() of it gives back the options less the password.
std::string withoutPassword(const ConnectionOptions& options);

} // namespace delayq::clusterurl
