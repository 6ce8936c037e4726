#pragma once

#include <delayq/connectionoptions.h>

#include <string>

namespace delayq {

// A URL form of ConnectionOptions with schemes of its own, kept apart from the single-server
// forms: redis+sentinel:// (sentinelurl.cpp, SentinelOptions has the grammar) and
// redis+cluster:// (clusterurl.cpp, ClusterOptions), each with its rediss+ twin.
struct UrlForm
{
    // Whether the URL is of this form, by its scheme alone.
    bool (*matches)(const std::string& url);
    // Throws Error(InvalidArgument) naming the bad part, never echoing a password.
    ConnectionOptions (*parse)(const std::string& url);
    // Whether the options are written in this form.
    bool (*writes)(const ConnectionOptions& options);
    // Every password as "***".
    std::string (*display)(const ConnectionOptions& options);
    // Every password left out; parse() of it gives back the options less the passwords.
    std::string (*withoutPassword)(const ConnectionOptions& options);

    static const UrlForm sentinel;
    static const UrlForm cluster;

    // The form of the URL, or of the options; nullptr for the single-server forms.
    static const UrlForm* ofUrl(const std::string& url)
    {
        for (const UrlForm* form : {&sentinel, &cluster})
            if (form->matches(url))
                return form;
        return nullptr;
    }
    static const UrlForm* of(const ConnectionOptions& options)
    {
        for (const UrlForm* form : {&sentinel, &cluster})
            if (form->writes(options))
                return form;
        return nullptr;
    }
};

} // namespace delayq
