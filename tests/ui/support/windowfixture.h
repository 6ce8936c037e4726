#pragma once

#include "client/tasktypes.h"
#include "redisserver.h"
#include "widgets/confirmation.h"

#include <QStringList>

#include <memory>

namespace delayq::ui {
class MainWindow;
class TaskTable;
} // namespace delayq::ui

// A MainWindow connected to the suite's own redis-server, for suites that drive the app as an
// operator does. Confirmations are answered by the fixture and recorded, so a test can read
// what the operator would have been asked. Helpers use QVERIFY: after one, a test checks
// QTest::currentTestFailed() only when it goes on to use the result.
class WindowFixture
{
public:
    explicit WindowFixture(RedisServer& server);
    ~WindowFixture();

    // A fresh window on an emptied server (call from init()).
    void reset();
    // Drops the window (call from cleanup()).
    void close();
    // A new window on the same server, as at the next start of the app (nothing flushed).
    void reopen();

    delayq::ui::MainWindow* window() const { return m_window.get(); }
    delayq::ui::TaskTable* table(delayq::TaskSet set) const;
    delayq::ui::TaskTable* pending() const { return table(delayq::TaskSet::Pending); }

    // Connects to url (the suite's server when empty), read-only when asked; returns once
    // connected.
    void connectWindow(bool readOnly = false, const QString& url = {});
    // Connects unless connected and opens the queue; returns once its first page and timeline
    // are shown.
    void openQueue(const QString& name);
    // Connects unless connected and opens the plain sorted set key (scores in unit, "ms" or
    // "s"); returns once its first page is shown.
    void openPlainKey(const QString& key, const QString& unit);
    // Selects the rows (waiting for their pages), the first one current.
    void selectRows(delayq::ui::TaskTable* table, const QList<int>& rows);
    // Reschedules the pending table's selection through Ctrl+R to the time `at` (the dialog's
    // "at" mode) and waits for the result.
    void rescheduleSelectionTo(const QString& at);
    // Once a refresh posted now is answered, every request posted before it has run.
    void drainRequests();

    // Tasks with the given ids, due now + i ms (so they keep the list's order).
    void pushTasks(const QString& queue, const QStringList& ids);
    // Tasks due at the given times (ms since the epoch); ids are generated.
    void pushAt(const QString& queue, const QList<qint64>& dueMs);
    // count tasks due from an hour ahead, one minute apart, into queue; returns the first due
    // time (ms since the epoch).
    qint64 pushEveryMinute(const QString& queue, int count);
    // Tasks that died after one attempt each (claims what is due: call it before pushTasks).
    void pushDead(const QString& queue, const QStringList& ids);

    // What the last confirmation asked; the next answer (true: the action button).
    const delayq::ui::Confirmation& lastConfirmation() const { return m_lastConfirmation; }
    int confirmations() const { return m_confirmations; }
    void setAnswer(bool answer) { m_answer = answer; }

private:
    RedisServer& m_server;
    std::unique_ptr<delayq::ui::MainWindow> m_window;
    delayq::ui::Confirmation m_lastConfirmation;
    int m_confirmations = 0;
    bool m_answer = true;
};
