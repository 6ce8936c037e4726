#pragma once

#include "client/connectiontypes.h"

#include <QByteArray>
#include <QString>

namespace delayq::ui {

// What the app remembers between starts, in QSettings: the server last chosen (never with
// a password), the window's layout and UTC choice, and the queue that was open. And, in this
// process's memory only, the passwords "kept for this session".
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
// Keeps the password a connection was made with (its password field, else its URL's) for
// this session, under the URL without it; never written anywhere. The watches of Alerts and
// the connection dialog find it there when no keychain holds it.
void keepPassword(const ConnectionSettings& settings);
// The password kept for this server (any URL of it, with or without a password); empty
// when none is.
QString keptPassword(const QString& url);

} // namespace SessionStore

} // namespace delayq::ui
