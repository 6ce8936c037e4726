#include "tasks/writeactions.h"

#include <QDialog>

namespace delayq::ui {

WriteActions::WriteActions(AdminClient* client, QWidget* window)
    : QObject(window), m_client(client), m_window(window)
{
    m_confirm = [this](const Confirmation& confirmation) { return confirmation.ask(m_window); };
}

void WriteActions::setQueue(const QString& queue)
{
    m_queue = queue;
    updateEnabled();
}

void WriteActions::setReadOnly(bool readOnly, const QString& reason)
{
    m_readOnly = readOnly;
    m_readOnlyReason = reason;
    updateEnabled();
}

void WriteActions::setPlain(bool plain)
{
    m_plain = plain;
    updateEnabled();
}

bool WriteActions::confirm(const Confirmation& confirmation)
{
    // Every question names the server too: the same queue name on another server is another
    // queue, and an operator may have several windows open.
    Confirmation asked = confirmation;
    if (!m_server.isEmpty())
        asked.text += QStringLiteral("\n\n") + tr("Server: %1").arg(m_server);
    return m_confirm ? m_confirm(asked) : false;
}

void WriteActions::showDialog(QDialog* dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    emit dialogOpened(dialog);
}

} // namespace delayq::ui
