#include "alerts/serverwatch.h"

#include "client/adminclient.h"
#include "client/overviewclient.h"

#include <QTimer>

namespace delayq::ui {

ServerWatch::ServerWatch(QString name, const ConnectionSettings& settings, int intervalMs,
                         QObject* parent)
    : QObject(parent), m_name(std::move(name)), m_client(new AdminClient(this)),
      m_timer(new QTimer(this))
{
    m_timer->setInterval(intervalMs);
    connect(m_timer, &QTimer::timeout, this, &ServerWatch::read);
    connect(m_client, &AdminClient::connected, this, [this] {
        read();
        m_timer->start();
    });
    connect(m_client, &AdminClient::disconnected, this,
            [this](const QString& reason, bool) { emit unreachable(m_name, reason); });
    connect(m_client->overview(), &OverviewClient::overviewLoaded, this,
            [this](const OverviewResult& result) {
                if (result.tag != m_tag)
                    return;
                m_tag = 0;
                if (result.error.isEmpty())
                    emit readingDone(m_name, result.rows);
                else
                    emit unreachable(m_name, result.error.message);
            });
    m_client->connectTo(settings);
}

void ServerWatch::read()
{
    if (m_tag != 0 || !m_client->isConnected())
        return; // one reading in flight at a time; an outage is said by disconnected
    m_tag = AdminClient::newTag();
    // The first reading has them, so a watch started before a burst warns before it.
    m_client->overview()->loadOverview(m_tag, {}, false, m_readings++ % kForecastEvery == 0);
}

} // namespace delayq::ui
