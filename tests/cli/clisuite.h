#pragma once

#include "clirunner.h"
#include "redissuite.h"

// The base of the suites that run the delayq binary against their own redis-server (through
// its unix socket), the way a user would.
class CliSuite : public RedisSuite
{
protected:
    CliRun delayq(const QStringList& args, const QByteArray& input = {}) const
    {
        return m_cli.run(args, input);
    }

    CliRunner m_cli{m_server.unixUrl()};
};
