#include "client/requesterror.h"

namespace delayq::ui {

RequestError RequestError::fromCore(const delayq::Error& error, const QString& operation)
{
    return {error.code(), operation, QString::fromUtf8(error.what())};
}

RequestError RequestError::other(delayq::ErrorCode code, const QString& message,
                                 const QString& operation)
{
    return {code, operation, message};
}

QString RequestError::text() const
{
    if (operation.isEmpty())
        return message;
    return operation + QStringLiteral(": ") + message;
}

} // namespace delayq::ui
