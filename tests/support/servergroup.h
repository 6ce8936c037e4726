#pragma once

#include <QString>

// A deployment of several redis-server processes that a suite starts once (SentinelGroup,
// ClusterGroup), as GroupSuite sees it.
class ServerGroup
{
public:
    virtual ~ServerGroup() = default;

    // Starts every process and waits until the group is ready; false with a reason in
    // errorString() otherwise.
    virtual bool start() = 0;
    // Stops every process (also those of a half-started group).
    virtual void stop() = 0;
    virtual QString errorString() const = 0;
};
