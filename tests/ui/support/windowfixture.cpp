#include "windowfixture.h"

#include "client/adminclient.h"
#include "tasks/rescheduledialog.h"
#include "tasks/taskactions.h"
#include "tasks/taskmodel.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "window/mainwindow.h"
#include <delayq/connection.h>
#include <delayq/queue.h>

#include <QDateTime>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace delayq::ui;

WindowFixture::WindowFixture(RedisServer& server) : m_server(server) {}

WindowFixture::~WindowFixture() = default;

void WindowFixture::reset()
{
    m_server.cli({QStringLiteral("FLUSHALL")});
    m_lastConfirmation = {};
    m_confirmations = 0;
    m_answer = true;
    reopen();
}

void WindowFixture::reopen()
{
    m_window = std::make_unique<MainWindow>();
    m_window->actions()->setConfirmHandler([this](const Confirmation& confirmation) {
        m_lastConfirmation = confirmation;
        ++m_confirmations;
        return m_answer;
    });
    m_window->show();
}

void WindowFixture::close()
{
    m_window.reset();
}

TaskTable* WindowFixture::table(delayq::TaskSet set) const
{
    return m_window->tabs()->table(set);
}

void WindowFixture::connectWindow(bool readOnly, const QString& url)
{
    ConnectionSettings settings;
    settings.url = url.isEmpty() ? QString::fromStdString(m_server.unixUrl()) : url;
    settings.readOnly = readOnly;
    QSignalSpy connected(m_window->client(), &AdminClient::connected);
    m_window->connectTo(settings);
    QVERIFY(connected.wait(5000));
}

void WindowFixture::openQueue(const QString& name)
{
    if (!m_window->client()->isConnected())
        connectWindow();
    QSignalSpy loaded(m_window.get(), &MainWindow::queueLoaded);
    m_window->openQueue(name);
    // Generous: a suite may open a queue of tens of thousands under a sanitizer, beside three
    // other suites (tst_forecastui's first open took over 10 s twice so in CI, 7 s alone).
    QVERIFY(loaded.wait(30000));
}

void WindowFixture::openPlainKey(const QString& key, const QString& unit)
{
    if (!m_window->client()->isConnected())
        connectWindow();
    QSignalSpy loaded(m_window.get(), &MainWindow::queueLoaded);
    m_window->openPlainKey(key, unit);
    QVERIFY(loaded.wait(5000));
}

void WindowFixture::selectRows(TaskTable* table, const QList<int>& rows)
{
    QTableView* view = table->view();
    view->setFocus();
    view->clearSelection();
    for (int row : rows) {
        QTRY_VERIFY(table->model()->taskAt(row));
        view->selectionModel()->select(table->model()->index(row, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    view->selectionModel()->setCurrentIndex(table->model()->index(rows.first(), 0),
                                            QItemSelectionModel::NoUpdate);
}

void WindowFixture::rescheduleSelectionTo(const QString& at)
{
    QTest::keyClick(pending()->view(), Qt::Key_R, Qt::ControlModifier);
    auto* dialog = qobject_cast<RescheduleDialog*>(m_window->actions()->activeDialog());
    QVERIFY(dialog);
    dialog->atMode()->setChecked(true);
    dialog->atEdit()->setText(at);
    QSignalSpy reported(m_window->actions(), &TaskActions::resultReported);
    dialog->accept();
    QVERIFY(reported.wait(5000));
}

void WindowFixture::drainRequests()
{
    QSignalSpy refreshed(pending()->model(), &TaskModel::refreshed);
    pending()->refresh();
    QVERIFY(refreshed.wait(5000));
}

void WindowFixture::pushTasks(const QString& queue, const QStringList& ids)
{
    delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue q(conn, queue.toStdString());
    std::vector<delayq::PushRequest> requests;
    for (int i = 0; i < ids.size(); ++i) {
        delayq::PushRequest r;
        r.id = ids.at(i).toStdString();
        r.payload = "{\"n\":" + std::to_string(i) + "}";
        r.delayMs = i;
        requests.push_back(r);
    }
    q.pushBatch(requests);
}

void WindowFixture::pushAt(const QString& queue, const QList<qint64>& dueMs)
{
    delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue q(conn, queue.toStdString());
    std::vector<delayq::PushRequest> requests;
    for (qint64 due : dueMs) {
        delayq::PushRequest r;
        r.dueAtMs = due;
        r.payload = "{}";
        requests.push_back(r);
    }
    q.pushBatch(requests);
}

qint64 WindowFixture::pushEveryMinute(const QString& queue, int count)
{
    const qint64 base = QDateTime::currentMSecsSinceEpoch() + 3600000;
    QList<qint64> due;
    for (int i = 0; i < count; ++i)
        due.append(base + i * 60000LL);
    pushAt(queue, due);
    return base;
}

void WindowFixture::pushDead(const QString& queue, const QStringList& ids)
{
    delayq::Connection conn(delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    delayq::Queue q(conn, queue.toStdString());
    for (const QString& id : ids) {
        delayq::PushRequest r;
        r.id = id.toStdString();
        r.maxAttempts = 1;
        r.payload = "{\"dead\":\"" + id.toStdString() + "\"}";
        q.push(r);
    }
    for (const auto& t : q.claim(static_cast<int>(ids.size()), 60000, "w").tasks)
        QVERIFY(q.nack(t.id, t.token, "boom: " + t.id).dead);
}
