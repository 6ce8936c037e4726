#include "windowsuite.h"

#include <QCoreApplication>
#include <QStandardPaths>

WindowSuite::WindowSuite(const QString& name)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("delayq-tests"));
    QCoreApplication::setApplicationName(name);
}

void WindowSuite::initTest()
{
    m_fixture.reset();
}

void WindowSuite::cleanupTest()
{
    m_fixture.close();
}
