#include "tasks/taskdetails.h"

#include "client/membertext.h"
#include "tasks/historytext.h"
#include "tasks/taskmodel.h"
#include "widgets/errortext.h"
#include "widgets/formrows.h"
#include <delayq/timeparse.h>

#include <QApplication>
#include <QMimeData>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringDecoder>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>

#include <limits>

namespace delayq::ui {

namespace {

// The core's task states in the app's language; anything else (a newer core's state) as is.
QString stateText(const QString& state)
{
    if (state == QLatin1String("pending"))
        return TaskDetails::tr("pending");
    if (state == QLatin1String("active"))
        return TaskDetails::tr("active");
    if (state == QLatin1String("dead"))
        return TaskDetails::tr("dead");
    return state;
}

} // namespace

TaskDetails::TaskDetails(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight);
    layout->addLayout(m_form);
    m_id = addField(tr("Id"));
    m_state = addField(tr("State"));
    m_time = addField(tr("Due"));
    m_created = addField(tr("Created"));
    m_expires = addField(tr("Expires"));
    for (QLabel* label : {m_id, m_time, m_created, m_expires}) {
        label->setWordWrap(false);
        label->installEventFilter(this);
    }
    m_attempts = addField(tr("Attempts"));
    m_backoff = addField(tr("Backoff"));
    m_order = addField(tr("Fair order"));
    m_worker = addField(tr("Worker"));
    m_lastError = addField(tr("Last error"));
    // A QTextEdit for its block formats (an event wrapped in a narrow pane hangs indented
    // under its start), always filled with setPlainText: nothing from Redis is read as markup.
    m_history = new QTextEdit(this);
    m_history->setObjectName(QStringLiteral("history"));
    m_history->setReadOnly(true);
    m_history->setAcceptRichText(false);
    m_history->setLineWrapMode(QTextEdit::WidgetWidth);
    // At least three lines, sharing the pane with the payload below (which keeps the most):
    // a fixed height made the window taller than a laptop's screen.
    m_history->setMinimumHeight(m_history->fontMetrics().lineSpacing() * 3 +
                                2 * m_history->frameWidth() + 8);
    // The pane's whole width, under the fields: a field column is too narrow for an event.
    m_historyLabel = new QLabel(tr("History"), this);
    m_historyLabel->setTextFormat(Qt::PlainText);
    layout->addWidget(m_historyLabel);
    layout->addWidget(m_history, 1);
    m_nativeRows = std::make_unique<FormRows>(
        m_form, QList<QWidget*>{m_id, m_created, m_attempts, m_backoff, m_order, m_worker,
                                m_lastError});
    // Only a task that has a start-by time shows the row: one more row on every task made the
    // window taller than a 1024 x 700 screen.
    m_expiresRow = std::make_unique<FormRows>(m_form, QList<QWidget*>{m_expires});
    m_expiresRow->setShown(false);

    m_format = new QLabel(this);
    m_format->setObjectName(QStringLiteral("payloadformat"));
    m_format->setTextFormat(Qt::PlainText);
    m_format->setWordWrap(true); // a long line here widened the window past 1,024 px
    layout->addWidget(m_format);

    m_payload = new QPlainTextEdit(this);
    m_payload->setReadOnly(true);
    m_payload->setObjectName(QStringLiteral("payload"));
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    layout->addWidget(m_payload, 2);
    auto* buttons = new QHBoxLayout;
    m_copyId = new QPushButton(tr("Copy id"), this);
    m_copyPayload = new QPushButton(tr("Copy payload"), this);
    buttons->addStretch(1);
    buttons->addWidget(m_copyId);
    buttons->addWidget(m_copyPayload);
    layout->addLayout(buttons);

    connect(m_copyId, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(MemberText::displayText(m_task.id, false));
    });
    // As stored, not as shown (indented, long lines marked): what was sent is what is copied.
    // Bytes that are not UTF-8 cannot be text on a clipboard: they go as raw data too.
    connect(m_copyPayload, &QPushButton::clicked, this, [this] {
        auto* data = new QMimeData;
        data->setText(QString::fromUtf8(m_task.payload));
        data->setData(QStringLiteral("application/octet-stream"), m_task.payload);
        QApplication::clipboard()->setMimeData(data);
    });
    clear();
}

QLabel* TaskDetails::addField(const QString& name)
{
    auto* value = new QLabel(this);
    // Ids, workers and errors come from Redis: never let Qt guess they are HTML.
    value->setTextFormat(Qt::PlainText);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    // A long id must not widen the pane and squeeze the table each time another task is
    // selected: the pane keeps its width and a long value is cut (Copy id has it whole).
    value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* label = new QLabel(name, this);
    label->setTextFormat(Qt::PlainText);
    m_form->addRow(label, value);
    return value;
}

QString TaskDetails::orderText() const
{
    return m_order->text();
}

QString TaskDetails::formatPayload(const QByteArray& payload, bool* isJson)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &error);
    const bool json = error.error == QJsonParseError::NoError && !doc.isNull();
    if (isJson)
        *isJson = json;
    if (json)
        return indentJson(payload);
    return MemberText::displayBytes(payload.toStdString());
}

QString TaskDetails::indentJson(const QByteArray& json)
{
    // Indented from the text as sent, not through QJsonDocument: that sorts an object's keys,
    // so {"order":7,"note":"x"} read as note, then order, and a repeated key was dropped.
    // Strings are copied byte for byte (their escapes too); only the space between tokens
    // is replaced. `json` is known to be valid.
    QByteArray out;
    out.reserve(json.size() + json.size() / 2);
    int depth = 0;
    bool inString = false;
    auto newline = [&out, &depth] {
        out += '\n';
        out += QByteArray(4 * depth, ' ');
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < json.size())
                out += json.at(++i);
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '{':
        case '[': {
            out += c;
            qsizetype next = i + 1;
            while (next < json.size() && QChar::isSpace(uchar(json.at(next))))
                ++next;
            const char close = c == '{' ? '}' : ']';
            if (next < json.size() && json.at(next) == close) { // {} and [] stay on one line
                out += close;
                i = next;
            } else {
                ++depth;
                newline();
            }
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':':
            out += ": ";
            break;
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            break;
        default:
            out += c;
        }
    }
    return QString::fromUtf8(out);
}

void TaskDetails::showTask(const TaskRow& task, TaskSet set)
{
    if (m_finished)
        m_hasTask = false;
    m_finished = false;
    if (!m_hasTask || task.id != m_task.id)
        m_historyLoaded = false;
    m_task = task;
    m_set = set;
    m_hasTask = true;
    render();
}

void TaskDetails::showFinished(const TaskHistoryResult& history)
{
    m_task = {};
    m_task.id = history.id;
    m_hasTask = true;
    m_finished = true;
    m_historyResult = history;
    m_historyLoaded = true;
    render();
}

void TaskDetails::showHistory(const TaskHistoryResult& result)
{
    if (!m_hasTask || m_finished || result.id != m_task.id)
        return;
    m_historyResult = result;
    m_historyLoaded = true;
    renderHistory();
}

QString TaskDetails::historyText() const
{
    return m_history->toPlainText();
}

void TaskDetails::renderHistory()
{
    if (!m_hasTask)
        m_history->clear();
    else if (!m_historyLoaded)
        setHistoryText(tr("Loading…"));
    else if (!m_historyResult.error.isEmpty())
        setHistoryText(tr("Could not be read: %1").arg(m_historyResult.error.text()));
    else if (m_historyResult.events.isEmpty())
        setHistoryText(tr("Not recorded: the queue's Task history setting is off "
                          "(Queue → Queue settings…)."));
    else
        setHistoryText(HistoryText::lines(m_historyResult.events, m_utc));
}

void TaskDetails::setHistoryText(const QString& text)
{
    // A refresh that brings the same events keeps the box as it is, scrolled where it was.
    if (m_history->toPlainText() == text)
        return;
    m_history->setPlainText(text);
    // Wrapped lines start a little in, so each event's time stands out at the left.
    const int hang = m_history->fontMetrics().horizontalAdvance(QStringLiteral("0000"));
    for (QTextBlock block = m_history->document()->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        format.setLeftMargin(hang);
        format.setTextIndent(-hang);
        QTextCursor(block).setBlockFormat(format);
    }
}

void TaskDetails::clear()
{
    m_hasTask = false;
    m_finished = false;
    m_historyLoaded = false;
    m_task = {};
    render();
    // The pane scrolls in a short window (windowlayout.cpp): with no task, or another queue
    // open, its field labels come back into view instead of staying where the last task
    // was scrolled to.
    for (QWidget* w = parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(w)) {
            area->verticalScrollBar()->setValue(0);
            break;
        }
}

void TaskDetails::setPlain(bool plain)
{
    m_plain = plain;
    m_nativeRows->setShown(!plain);
    m_historyLabel->setVisible(!plain);
    m_history->setVisible(!plain);
    m_copyId->setVisible(!plain);
    m_copyPayload->setText(plain ? tr("Copy message") : tr("Copy payload"));
    render();
}

void TaskDetails::setUtc(bool utc)
{
    m_utc = utc;
    render();
}

QString TaskDetails::payloadText() const
{
    return m_payload->toPlainText();
}

QString TaskDetails::idText() const
{
    return m_idFull;
}

void TaskDetails::setIdText(const QString& id)
{
    m_idFull = id;
    setOneLine(m_id, id);
}

void TaskDetails::setOneLine(QLabel* label, const QString& text)
{
    label->setProperty("fullText", text);
    label->setToolTip(text);
    elide(label);
}

void TaskDetails::elide(QLabel* label)
{
    // One line, cut with an ellipsis: an id in the middle (a ULID's time and its random end
    // both stay), a time on the left (the clock stays; wrapped, its second line was cut off
    // and a death showed its date alone). Copy id copies the id whole.
    const QString text = label->property("fullText").toString();
    const int room = label->contentsRect().width();
    const Qt::TextElideMode mode = label == m_id ? Qt::ElideMiddle : Qt::ElideLeft;
    label->setText(room > 0 ? label->fontMetrics().elidedText(text, mode, room) : text);
}

bool TaskDetails::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize)
        for (QLabel* label : {m_id, m_time, m_created})
            if (watched == label)
                elide(label);
    return QWidget::eventFilter(watched, event);
}

void TaskDetails::render()
{
    const QList<QLabel*> labels{m_id,       m_state,   m_time,  m_created, m_expires,
                                m_attempts, m_backoff, m_order, m_worker,  m_lastError};
    m_copyId->setEnabled(m_hasTask);
    m_copyPayload->setEnabled(m_hasTask);
    m_expiresRow->setShown(!m_plain && m_hasTask && !m_finished && m_set != TaskSet::Dead &&
                           m_task.expiresAt > 0);
    // A finished task has no payload: its events take the box's room.
    m_payload->setVisible(!m_finished);
    if (!m_hasTask) {
        for (auto* label : labels)
            label->clear();
        m_idFull.clear();
        for (QLabel* label : {m_id, m_time, m_created})
            setOneLine(label, {}); // a resize must not bring the last task's text back
        m_lastError->setToolTip({});
        m_format->setText(tr("Select a task to see its payload."));
        m_payload->clear();
        renderHistory();
        return;
    }
    if (m_finished) {
        renderFinished();
        return;
    }
    auto time = [this](qint64 ms) {
        return ms > 0 ? QString::fromStdString(delayq::formatTime(ms, m_utc)) : QStringLiteral("-");
    };
    auto* timeLabel = qobject_cast<QLabel*>(m_form->labelForField(m_time));
    if (timeLabel)
        timeLabel->setText(m_set == TaskSet::Pending  ? tr("Due")
                           : m_set == TaskSet::Active ? tr("Lease until")
                                                      : tr("Died"));
    setIdText(MemberText::displayText(m_task.id));
    m_state->setText(m_task.broken ? tr("broken") : stateText(m_task.state));
    setOneLine(m_time, time(m_task.score));
    setOneLine(m_created, time(m_task.created));
    // Expiry (push --expires-at / --max-age, or the queue's max_age): a dead task's is history.
    setOneLine(m_expires,
               m_set != TaskSet::Dead && m_task.expiresAt > 0
                   ? tr("%1 (not started by then, it never runs)").arg(time(m_task.expiresAt))
                   : QStringLiteral("-"));
    m_attempts->setText(m_task.maxAttempts > 0
                            ? tr("%1 of %2").arg(m_task.attempts).arg(m_task.maxAttempts)
                            : QString::number(m_task.attempts));
    m_backoff->setText(m_task.backoff.isEmpty() ? tr("queue default") : m_task.backoff);
    // Said only for a task pushed with either (the queue's order decides whether they count).
    m_order->setText(m_task.priority == 0 && m_task.group.isEmpty() ? QStringLiteral("-")
                     : m_task.group.isEmpty()
                         ? tr("priority %1").arg(m_task.priority)
                         : tr("priority %1, group %2").arg(m_task.priority).arg(m_task.group));
    m_worker->setText(m_task.worker.isEmpty() ? QStringLiteral("-") : m_task.worker);
    // A handler's error can be a whole stack trace: a label shows its start.
    constexpr qsizetype kMaxError = 2000;
    // What the command said first ("smtp: 550 … (exec: exit 7)"): the label has room for
    // a few lines; the tooltip has the error as stored.
    const QString error = ErrorText::causeFirst(m_task.lastError);
    m_lastError->setText(m_task.lastError.isEmpty() ? QStringLiteral("-")
                         : error.size() > kMaxError ? error.left(kMaxError) + QChar(0x2026)
                                                    : error);
    m_lastError->setToolTip(m_task.lastError.left(kMaxError));
    bool json = false;
    const QString text = formatPayload(m_task.payload, &json);
    const qint64 size = qMax<qint64>(m_task.payloadSize, m_task.payload.size());
    if (size > m_task.payload.size())
        m_format->setText((m_plain
                               ? tr("Message (%1 bytes; the first %2 shown, loading the rest…)")
                               : tr("Payload (%1 bytes; the first %2 shown, loading the rest…)"))
                              .arg(size)
                              .arg(m_task.payload.size()));
    else {
        // %n: "1 byte", "2 bytes" (English's plurals come from delayq-admin_en.ts).
        const int n = int(qMin<qint64>(size, std::numeric_limits<int>::max()));
        // Not UTF-8 (shown with its bytes escaped, \xff): binary, not text.
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString decoded = utf8.decode(m_task.payload); // decodes when made a QString
        const bool binary = !json && utf8.hasError();
        m_format->setText(m_plain ? (json     ? tr("Message (JSON, %n byte(s))", nullptr, n)
                                     : binary ? tr("Message (binary, %n byte(s))", nullptr, n)
                                              : tr("Message (text, %n byte(s))", nullptr, n))
                                  : (json     ? tr("Payload (JSON, %n byte(s))", nullptr, n)
                                     : binary ? tr("Payload (binary, %n byte(s))", nullptr, n)
                                              : tr("Payload (text, %n byte(s))", nullptr, n)));
    }
    m_payload->setPlainText(forDisplay(text, m_format));
    renderHistory();
}

void TaskDetails::renderFinished()
{
    const QList<TaskEventRow>& events = m_historyResult.events;
    const TaskEventRow last = events.isEmpty() ? TaskEventRow{} : events.constLast();
    const QString when = QString::fromStdString(delayq::formatTime(last.at, m_utc));
    if (auto* timeLabel = qobject_cast<QLabel*>(m_form->labelForField(m_time)))
        timeLabel->setText(tr("Finished"));
    setIdText(MemberText::displayText(m_task.id));
    m_state->setText(last.kind == QLatin1String("acked") ? tr("finished — acked at %1").arg(when)
                     : last.kind == QLatin1String("cancelled")
                         ? tr("finished — cancelled at %1").arg(when)
                         : tr("finished at %1").arg(when));
    setOneLine(m_time, when);
    // What the kept events tell of its last attempt; the rest left the queue with it.
    int attempts = 0;
    QString worker;
    QString error;
    for (const TaskEventRow& e : events) {
        if (e.kind == QLatin1String("claimed")) {
            ++attempts;
            worker = e.who;
        } else if (e.kind == QLatin1String("failed") || e.kind == QLatin1String("died")) {
            error = e.text;
        }
    }
    const QString none = QStringLiteral("-");
    setOneLine(m_created,
               events.isEmpty() || events.constFirst().kind != QLatin1String("pushed")
                   ? none
                   : QString::fromStdString(delayq::formatTime(events.constFirst().at, m_utc)));
    m_attempts->setText(attempts > 0 ? QString::number(attempts) : none);
    m_backoff->setText(none);
    m_expires->setText(none);
    m_order->setText(none);
    m_worker->setText(worker.isEmpty() ? none : worker);
    m_lastError->setText(error.isEmpty() ? none : error);
    m_format->setText(tr("The task has left the queue: its payload is not kept, only its last "
                         "%n event(s), above.",
                         nullptr, int(events.size())));
    m_payload->clear();
    m_copyId->setEnabled(true);
    m_copyPayload->setEnabled(false);
    renderHistory();
}

QString TaskDetails::forDisplay(const QString& text, QLabel* note)
{
    // Laying out one very long line takes the text engine seconds on the GUI thread, so
    // long lines are cut into pieces and huge payloads shortened, for display only: the
    // copy button copies the payload as stored.
    constexpr qsizetype kMaxChars = 256 * 1024;
    constexpr qsizetype kMaxLine = 1000;
    QString shown = text.left(kMaxChars);
    bool wrapped = false;
    QString out;
    out.reserve(shown.size() + shown.size() / kMaxLine + 1);
    qsizetype lineLength = 0;
    for (QChar c : std::as_const(shown)) {
        if (c == QLatin1Char('\n')) {
            lineLength = 0;
        } else if (++lineLength > kMaxLine) {
            // Marked: a bare break inside a long JSON string read as a line break in the data.
            out += QLatin1Char('\n');
            out += QChar(0x21AA); // ↪
            lineLength = 1;
            wrapped = true;
        }
        out += c;
    }
    QStringList notes;
    if (text.size() > kMaxChars)
        notes << tr("first %1 KiB shown").arg(kMaxChars / 1024);
    if (wrapped)
        notes << tr("long lines broken for display (↪ marks a break)");
    if (!notes.isEmpty())
        note->setText(note->text() + QStringLiteral(" — ") + notes.join(QStringLiteral(", ")) +
                      tr("; Copy payload copies it as stored"));
    return out;
}

} // namespace delayq::ui
