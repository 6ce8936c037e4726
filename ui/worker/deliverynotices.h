#pragma once

#include <QMutex>
#include <QStringList>

#include <string>

namespace delayq::ui {

// The delivery target's lines for the operator (blocked / unblocked, a consumer restarted),
// said from the worker's threads (DeliveryOptions::notice) and read by the dock's timer on
// the GUI thread. Each line is timestamped when it is said. Holds the newest kMax.
class DeliveryNotices
{
public:
    static constexpr qsizetype kMax = 200;

    void add(const std::string& line);
    QStringList take();

private:
    QMutex m_mutex;
    QStringList m_lines;
};

} // namespace delayq::ui
