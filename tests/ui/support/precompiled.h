#pragma once

// tests/support/precompiled.h and the widgets the window suites look into, compiled once for
// the suites in tests/ui (see tests/CMakeLists.txt).
#include "../../support/precompiled.h"
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
