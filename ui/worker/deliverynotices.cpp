#include "worker/deliverynotices.h"

#include <QDateTime>

namespace delayq::ui {

void DeliveryNotices::add(const std::string& line)
{
    const QString stamped = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss.zzz")) +
                            QLatin1Char(' ') + QString::fromStdString(line);
    QMutexLocker lock(&m_mutex);
    m_lines.append(stamped);
    if (m_lines.size() > kMax)
        m_lines.removeFirst();
}

QStringList DeliveryNotices::take()
{
    QMutexLocker lock(&m_mutex);
    QStringList out;
    out.swap(m_lines);
    return out;
}

} // namespace delayq::ui
