#pragma once

#include "widgets/confirmation.h"

#include <QObject>

#include <functional>

class QDialog;
class QWidget;

namespace delayq::ui {

class AdminClient;

// What the task actions and the queue-wide actions share: the open queue, whether it is a
// plain sorted set, the read-only state with its reason (each change enables anew what
// applies), the confirmations, and what they tell the window.
class WriteActions : public QObject
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const Confirmation& confirmation)>;

    void setQueue(const QString& queue);
    void setReadOnly(bool readOnly, const QString& reason);
    void setPlain(bool plain);
    // The server the confirmations name (as shown, password masked).
    void setServer(const QString& server) { m_server = server; }
    bool isReadOnly() const { return m_readOnly; }

signals:
    void refreshRequested();
    void dialogOpened(QDialog* dialog);
    // `ok`: everything asked for was done.
    void resultReported(const QString& summary, bool ok);

protected:
    // The confirmations ask with a message box over `window` until a handler is set.
    WriteActions(AdminClient* client, QWidget* window);
    // Enables what applies to the queue, the session and the selection now.
    virtual void updateEnabled() = 0;
    bool confirm(const Confirmation& confirmation);
    // Opens `dialog` (deleted when it closes) and tells the window, which tests watch.
    void showDialog(QDialog* dialog);

    AdminClient* m_client;
    QWidget* m_window;
    QString m_server;
    QString m_queue;
    bool m_readOnly = false;
    bool m_plain = false;
    QString m_readOnlyReason;
    ConfirmHandler m_confirm;
};

} // namespace delayq::ui
