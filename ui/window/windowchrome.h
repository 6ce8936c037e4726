#pragma once

namespace delayq::ui {

class MainWindow;

// The MainWindow's layout, built once from the pieces the window made: its pages (the
// overview, and the task tabs beside the details under the notices), and what frames them,
// the docks, the toolbar and the menus. Their texts stay the window's (MainWindow::tr): it
// shows them.
class WindowChrome
{
public:
    // Makes the plain-key bar, the layout notice, the overview and the page stack.
    static void buildPages(MainWindow* w);
    static void buildFrame(MainWindow* window);

private:
    static void buildDocks(MainWindow* w);
    static void buildToolBar(MainWindow* w);
    static void buildMenus(MainWindow* w);
};

} // namespace delayq::ui
