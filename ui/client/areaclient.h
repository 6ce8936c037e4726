#pragma once

#include "client/requesterror.h"
#include "client/steppedjob.h"

#include <QObject>
#include <QString>

#include <functional>
#include <type_traits>
#include <utility>

namespace delayq {
class Connection;
}

namespace delayq::ui {

class IoWorker;

// What every client of one area (tasks, queues, overview, plain keys, export, matches, schedules) does
// the same way: post a request to the admin connection's I/O thread (IoWorker) and answer it
// with one of its own signals, emitted on its own thread. AdminClient makes one client of
// each area and ends the I/O thread before they go, so no job outlives the client it answers.
class AreaClient : public QObject
{
public:
    AreaClient(IoWorker* io, QObject* parent);

protected:
    IoWorker* io() const { return m_io; }
    // Runs a stepped job on the I/O thread.
    void run(SteppedJob job);

    // Emits `signal` of this client on the client's own thread (not the I/O thread), so every
    // receiver, direct connections included, runs where the client lives.
    template <typename Self, typename... Args, typename... Values>
    void deliver(void (Self::*signal)(Args...), Values&&... values)
    {
        auto* self = static_cast<Self*>(this);
        QMetaObject::invokeMethod(
            self,
            [self, signal, ... v = std::decay_t<Values>(std::forward<Values>(values))] {
                (self->*signal)(v...);
            },
            Qt::QueuedConnection);
    }
    // Fills `result` with the connection on the I/O thread (the error when the job throws)
    // and delivers it with `signal`.
    template <typename Self, typename Result, typename Fill>
    void request(void (Self::*signal)(const Result&), Result result, const QString& operation,
                 Fill fill)
    {
        post([this, signal, result = std::move(result), operation,
              fill = std::move(fill)]() mutable {
            result.error = guarded(operation, [&](delayq::Connection& c) { fill(c, result); });
            deliver(signal, result);
        });
    }

private:
    void post(std::function<void()> job);
    RequestError guarded(const QString& operation,
                         const std::function<void(delayq::Connection&)>& job);

    IoWorker* m_io;
};

// A result answering request `tag` (about `queue`, for the results that name one).
template <typename Result> Result answerTo(quint64 tag, const QString& queue = {})
{
    Result result;
    result.tag = tag;
    if constexpr (requires { result.queue; })
        result.queue = queue;
    return result;
}

} // namespace delayq::ui
