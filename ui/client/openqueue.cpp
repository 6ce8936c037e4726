#include "client/openqueue.h"

namespace delayq::ui {

void OpenQueue::open(const QString& name, bool plain, const QString& unit)
{
    m_name = name;
    m_plain = plain;
    m_unit = plain ? unit : QString();
    emit opened();
}

void OpenQueue::setUnit(const QString& key, const QString& unit)
{
    if (!m_plain || key != m_name || unit == m_unit)
        return;
    m_unit = unit;
    emit unitChanged();
}

void OpenQueue::setReadOnly(bool readOnly, const QString& reason)
{
    m_readOnly = readOnly;
    m_readOnlyReason = reason;
    emit readOnlyChanged();
}

void OpenQueue::setServer(const QString& server)
{
    if (server == m_server)
        return;
    m_server = server;
    emit serverChanged();
}

void OpenQueue::setUtc(bool utc)
{
    if (utc == m_utc)
        return;
    m_utc = utc;
    emit utcChanged();
}

void OpenQueue::setClockOffset(qint64 ms)
{
    m_clockOffsetMs = ms;
    emit clockOffsetChanged();
}

} // namespace delayq::ui
