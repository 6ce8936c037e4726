#pragma once

#include "expecterror.h"
#include "redisserver.h"
#include <delayq/connection.h>

#include <string>

// conn (a command timeout of 300 ms) answered once, then its server frozen: the next call times
// out and says after how long. The caller thaws the server (RedisSuite's init does as well).
inline void expectTimeoutOnceFrozen(delayq::Connection& conn, RedisServer& server)
{
    std::string m_message; // EXPECT_ERROR's
    conn.ping();
    server.freeze();
    EXPECT_ERROR(delayq::ErrorCode::Timeout, "", conn.ping());
    QVERIFY2(m_message.find("timed out after 300 ms") != std::string::npos, m_message.c_str());
}
