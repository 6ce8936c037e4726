#include "client/areaclient.h"

#include "client/ioworker.h"

namespace delayq::ui {

AreaClient::AreaClient(IoWorker* io, QObject* parent) : QObject(parent), m_io(io) {}

void AreaClient::run(SteppedJob job)
{
    post([io = m_io, job = std::move(job)] { io->run(job); });
}

void AreaClient::post(std::function<void()> job)
{
    m_io->post(std::move(job));
}

RequestError AreaClient::guarded(const QString& operation,
                                 const std::function<void(delayq::Connection&)>& job)
{
    return m_io->guarded(operation, job);
}

} // namespace delayq::ui
