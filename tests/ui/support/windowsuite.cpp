#include "windowsuite.h"

#include <QCoreApplication>
#include <QStandardPaths>

WindowSuite::WindowSuite()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
}

void WindowSuite::initTest()
{
    m_fixture.reset();
}

void WindowSuite::cleanupTest()
{
    m_fixture.close();
}
