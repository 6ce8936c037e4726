#pragma once

#include "redissuite.h"
#include "windowfixture.h"

// The base of the suites that drive the window: a RedisSuite whose every test function
// starts on a fresh window connected to nothing yet (WindowFixture), with QSettings kept in
// a test location of the suite's own, so nothing of the user's is read or written.
class WindowSuite : public RedisSuite
{
public:
    explicit WindowSuite(const QString& name);

protected:
    void initTest() override;
    void cleanupTest() override;

    WindowFixture m_fixture{m_server};
};
