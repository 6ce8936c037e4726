#pragma once

#include <delayq/error.h>

#include <QMetaType>
#include <QString>

#include <optional>

namespace delayq::ui {

// Why a request from the app failed, as it travels from the I/O thread to a view: the
// core's code (so a view can tell "no right" from "unreachable" without reading the text),
// what the app was doing, and the message to show. Empty when the request succeeded, and then
// it carries no code: a success is not some error.
struct RequestError
{
    std::optional<delayq::ErrorCode> code;
    QString operation; // "list queues", "cancel", ...: what the app was doing
    QString message;   // the core's message: what happened and what to do

    static RequestError fromCore(const delayq::Error& error, const QString& operation);
    // A failure the core did not report, e.g. no connection yet.
    static RequestError other(delayq::ErrorCode code, const QString& message,
                              const QString& operation);

    bool isEmpty() const { return message.isEmpty(); }
    // For a status line: "cancel: Redis refuses writes: READONLY ...".
    QString text() const;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::RequestError)
