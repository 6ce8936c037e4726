#include "overview/workersview.h"

#include "client/adminclient.h"
#include "client/overviewclient.h"
#include "widgets/columnfit.h"
#include "widgets/duetext.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

// A cell shown as text and sorted by a number (durations, ages, counts).
class SortedItem : public QTableWidgetItem
{
public:
    SortedItem(const QString& text, qint64 key) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, key);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toLongLong() < other.data(Qt::UserRole).toLongLong();
    }
};

constexpr int kRefreshMs = 5000;

} // namespace

WorkersView::WorkersView(AdminClient* client, QWidget* parent) : QDialog(parent), m_client(client)
{
    setWindowTitle(tr("Workers"));
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("workersTable"));
    m_table->setHorizontalHeaderLabels({tr("Queue"), tr("Worker"), tr("State"), tr("Host"),
                                        tr("PID"), tr("Handler"), tr("Threads"), tr("Up"),
                                        tr("Last seen"), tr("Held"), tr("Acked"), tr("Failed"),
                                        tr("Lateness p99")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_fit = new ColumnFit(m_table);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Queue, Qt::AscendingOrder);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* held = buttons->addButton(tr("Show held tasks"), QDialogButtonBox::ActionRole);
    held->setObjectName(QStringLiteral("showHeldTasks"));
    held->setEnabled(false);
    held->setToolTip(tr("Open the worker's queue on its Active tab, found by the worker's name"));
    auto* refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    // Focus starts on Close: in the table it would frame a first row nobody chose.
    buttons->button(QDialogButtonBox::Close)->setFocus();
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refresh, &QPushButton::clicked, this, &WorkersView::reload);
    connect(held, &QPushButton::clicked, this, &WorkersView::requestHeldTasks);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this, held] { held->setEnabled(!selectedRowIsPlain().value_or(true)); });
    connect(m_table, &QTableWidget::itemDoubleClicked, this, &WorkersView::requestHeldTasks);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    connect(m_client->overview(), &OverviewClient::workersLoaded, this, &WorkersView::onLoaded);
    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_inFlight)
            reload();
    });
    m_timer->start();
    resize(980, 420);
    reload();
}

void WorkersView::reload()
{
    if (m_table->rowCount() == 0)
        m_summary->setText(tr("Asking the server…"));
    m_tag = AdminClient::newTag();
    m_inFlight = true;
    m_client->overview()->loadWorkers(m_tag);
}

void WorkersView::onLoaded(const WorkersResult& result)
{
    if (result.tag != m_tag)
        return;
    m_inFlight = false;
    if (!result.error.isEmpty()) {
        // The last list stays, marked as old by the summary.
        m_summary->setText(
            tr("Could not %1: %2").arg(result.error.operation, result.error.message));
    } else {
        fill(result);
    }
    emit loaded();
}

void WorkersView::fill(const WorkersResult& result)
{
    // The selected worker stays selected across refreshes, by queue and name, never by row.
    QString selectedQueue;
    QString selectedName;
    if (const auto rows = m_table->selectionModel()->selectedRows(); !rows.isEmpty()) {
        selectedQueue = m_table->item(rows.first().row(), Queue)->text();
        selectedName = m_table->item(rows.first().row(), Worker)->text();
    }
    m_table->setSortingEnabled(false);
    m_table->clearSelection();
    m_table->setRowCount(0);
    int live = 0;
    int stalled = 0;
    QStringList queues;
    for (const auto& w : result.workers) {
        addRow(w, result.serverNow);
        live += w.live ? 1 : 0;
        stalled += w.stalled ? 1 : 0;
        if (!queues.contains(w.queue))
            queues.append(w.queue);
    }
    m_table->setSortingEnabled(true);
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, Queue)->text() == selectedQueue &&
            m_table->item(row, Worker)->text() == selectedName)
            m_table->selectRow(row);
    // No cell looks chosen when none is: the focus frame would sit on the first row.
    if (m_table->selectionModel()->selectedRows().isEmpty())
        m_table->selectionModel()->clearCurrentIndex();
    // Every column in the dialog's width, none to scroll sideways to: the names, the host
    // and the handler (a command line) give up room, elided, whole in their tooltips.
    m_fit->fitContents({{Queue, 8}, {Worker, 10}, {Host, 6}, {Handler, 8}});
    const int gone = static_cast<int>(result.workers.size()) - live;
    QString text =
        result.workers.isEmpty()
            ? tr("No worker has a heartbeat on any queue.")
            : tr("Live: %1 · gone: %2 · queues: %3").arg(live).arg(gone).arg(queues.size());
    if (stalled > 0)
        text += tr(" · stalled: %1 (live, holding tasks, nothing acked for 5 min)").arg(stalled);
    m_summary->setText(text);
}

void WorkersView::addRow(const WorkerRow& w, qint64 now)
{
    const QLocale locale;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const qint64 upMs = (w.live ? now : w.lastSeenMs) - w.startedMs;
    const qint64 seenAgo = std::max<qint64>(0, now - w.lastSeenMs);
    const QString state = w.stalled ? tr("stalled") : w.live ? tr("live") : tr("gone");
    const auto number = [&](qint64 v) { return new SortedItem(locale.toString(v), v); };
    // A plain key's consumer says so: its "queue" is a sorted set with no Active tab.
    auto* queue = new QTableWidgetItem(w.plain ? tr("%1 (plain)").arg(w.queue) : w.queue);
    queue->setData(Qt::UserRole, w.plain);
    if (w.plain)
        queue->setToolTip(w.handler.startsWith(QLatin1String("lease:"))
                              ? tr("Forwards the plain key %1: at least once").arg(w.queue)
                              : tr("Pops the plain key %1: at most once").arg(w.queue));
    m_table->setItem(row, Queue, queue);
    m_table->setItem(row, Worker, new QTableWidgetItem(w.name));
    m_table->setItem(row, State, new SortedItem(state, w.stalled ? 1 : w.live ? 0 : 2));
    m_table->setItem(row, Host, new QTableWidgetItem(w.host));
    m_table->setItem(row, Pid, new SortedItem(QString::number(w.pid), w.pid));
    m_table->setItem(row, Handler, new QTableWidgetItem(w.handler));
    m_table->setItem(row, Threads, number(w.threads));
    m_table->setItem(row, Up, new SortedItem(DueText::duration(upMs / 1000 * 1000), upMs));
    m_table->setItem(
        row, LastSeen,
        new SortedItem(seenAgo < 1000 ? tr("now")
                                      : tr("%1 ago").arg(DueText::duration(seenAgo / 1000 * 1000)),
                       seenAgo));
    m_table->setItem(row, Held, number(w.held));
    m_table->setItem(row, Acked, number(w.acked));
    m_table->setItem(row, Failed, number(w.failed));
    m_table->setItem(row, LatenessP99,
                     new SortedItem(DueText::duration(w.latenessP99Ms), w.latenessP99Ms));
    // What a narrow column elides, whole on hover.
    for (int c : {Worker, Host, Handler})
        if (QTableWidgetItem* item = m_table->item(row, c); item && item->toolTip().isEmpty())
            item->setToolTip(item->text());
    for (int c : {Threads, Held, Acked, Failed, Pid, Up, LastSeen, LatenessP99})
        m_table->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!w.live || w.stalled)
        m_table->item(row, State)->setForeground(QColor(0xc0, 0x39, 0x2b));
}

std::optional<bool> WorkersView::selectedRowIsPlain() const
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return m_table->item(rows.first().row(), Queue)->data(Qt::UserRole).toBool();
}

void WorkersView::requestHeldTasks()
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty() || selectedRowIsPlain().value_or(true))
        return; // a plain key's members have no Active tab to find them in
    const int row = rows.first().row();
    emit heldTasksRequested(m_table->item(row, Queue)->text(), m_table->item(row, Worker)->text());
}

} // namespace delayq::ui
