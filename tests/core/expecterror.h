#pragma once

#include <delayq/error.h>

#include <QString>
#include <QTest>

#include <functional>
#include <optional>
#include <string>

// The Error a call throws, or nothing.
inline std::optional<delayq::Error> errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const delayq::Error& e) {
        return e;
    }
    return std::nullopt;
}

// True when error is there, of the code, its message holding words; otherwise it says why.
// For QVERIFY, which then ends the test before anything reads the missing error.
inline bool isError(const std::optional<delayq::Error>& error, delayq::ErrorCode code,
                    const QString& words)
{
    if (!error) {
        qWarning("no error");
        return false;
    }
    if (error->code() != code || !QString(error->what()).contains(words)) {
        qWarning("%s: %s", delayq::errorCodeName(error->code()), error->what());
        return false;
    }
    return true;
}

// The statement must throw delayq::Error(expectedCode) whose message does not hold
// secretText ("" = nothing to hide). The message is kept in `m_message` (a std::string member
// of the test class) for further checks. Variadic so that braces with commas pass through.
#define EXPECT_ERROR(expectedCode, secretText, ...)                                                \
    do {                                                                                           \
        const auto error_ = errorOf([&] { __VA_ARGS__; });                                         \
        QVERIFY2(error_.has_value(), "no error from: " #__VA_ARGS__);                              \
        m_message = error_->what();                                                                \
        QVERIFY2(error_->code() == (expectedCode),                                                 \
                 qPrintable(QString("%1: %2").arg(delayq::errorCodeName(error_->code()),           \
                                                  QString::fromStdString(m_message))));            \
        const std::string secret_ = (secretText);                                                  \
        QVERIFY2(secret_.empty() || m_message.find(secret_) == std::string::npos,                  \
                 m_message.c_str());                                                               \
        QVERIFY(!m_message.empty());                                                               \
    } while (false)
