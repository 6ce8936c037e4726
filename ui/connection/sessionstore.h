#pragma once

#include "client/connectiontypes.h"

#include <QByteArray>
#include <QString>

namespace delayq::ui {

// What the app remembers between starts, in QSettings: the server last chosen (never with
// a password), the window's layout and UTC choice, and the queue that was open.
namespace SessionStore {

struct View
{
    QByteArray geometry;
    QByteArray state;
    bool utc = false;
};
struct OpenQueue
{
    QString server; // the URL without its password: a name means a queue on one server
    QString name;
    bool plain = false;
};

void saveConnection(const ConnectionSettings& settings);
// False on a first start (nothing chosen yet).
bool lastConnection(ConnectionSettings* settings);
void saveView(const View& view);
View view();
void saveOpenQueue(const OpenQueue& queue);
OpenQueue openQueue();

} // namespace SessionStore

} // namespace delayq::ui
