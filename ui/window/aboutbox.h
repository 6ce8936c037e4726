#pragma once

class QWidget;

namespace delayq::ui {

// Help → About: the app's name and version (QCoreApplication::applicationVersion(), which
// main() sets from CMake's project version) and the Qt it runs on.
void showAboutBox(QWidget* parent);

} // namespace delayq::ui
