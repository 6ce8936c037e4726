#include "find/findbar.h"

#include "client/membertext.h"
#include "widgets/errortext.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/timeparse.h>

#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>

namespace delayq::ui {

namespace {
constexpr int kMemberRole = Qt::UserRole + 1;
constexpr int kGoneRole = Qt::UserRole + 2;
// A native match's score and its text after the time, to show a new time (setMatchScore).
constexpr int kScoreRole = Qt::UserRole + 3;
constexpr int kRestRole = Qt::UserRole + 4;
} // namespace

FindBar::FindBar(QWidget* parent) : QWidget(parent)
{
    makeWidgets();
    layOut();
    connectControls();
    setPlain(false);
}

void FindBar::makeWidgets()
{
    m_input = new QLineEdit(this);
    m_input->setClearButtonEnabled(true);
    m_find = new QPushButton(this);
    m_findText = new QPushButton(tr("Find text"), this);
    m_findText->setToolTip(tr("Search the text of every task of this tab, in steps"));
    m_field = new QComboBox(this);
    m_field->addItem(tr("in payloads"));
    m_field->addItem(tr("in last errors"));
    m_field->addItem(tr("in workers"));
    m_act = new QPushButton(tr("Act on all matches…"), this);
    m_act->setToolTip(
        tr("Cancel, reschedule, requeue or delete every task the search matches, not only "
           "those listed"));
    m_jump = new QPushButton(tr("Jump to time"), this);
    m_close = new QToolButton(this);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Close (Esc)"));
    m_error = new FieldError(this);
    // Its room is kept, shown or not, and never grows: a message appearing must not move the
    // match list under the pointer (a second click on a gone match landed on its neighbour).
    // Two lines; a longer message is cut there and whole in the tooltip.
    m_error->setObjectName(QStringLiteral("findError"));
    m_error->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_error->setFixedHeight(m_error->fontMetrics().lineSpacing() * 2 + 2);
    QSizePolicy kept(QSizePolicy::Ignored, QSizePolicy::Fixed);
    kept.setRetainSizeWhenHidden(true);
    m_error->setSizePolicy(kept);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(12);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setToolTip(tr("Stop the search; the matches found so far stay listed"));
    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText);
    // A long status ("the first 1,000 matches …") wraps instead of widening the window.
    m_status->setWordWrap(true);
    m_status->setMinimumWidth(0);
    // Two lines, kept: "1 no longer match" added to a wrapped status must not move the list.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_status->setFixedHeight(m_status->fontMetrics().lineSpacing() * 2 + 2);
    m_matches = new QListWidget(this);
    setObjectName(QStringLiteral("findBar"));
    m_input->setObjectName(QStringLiteral("findInput"));
    m_field->setObjectName(QStringLiteral("findField"));
    m_findText->setObjectName(QStringLiteral("findText"));
    m_matches->setObjectName(QStringLiteral("findMatches"));
    m_status->setObjectName(QStringLiteral("findStatus"));
    m_matches->setMaximumHeight(140);
    m_matches->setUniformItemSizes(true);
    // The input's own width, not its placeholder's, is its minimum: the bar fits a 1024 px
    // window, the worker panel beside it included (the placeholder is cut, the tooltip says it
    // whole); ten characters still show a typed id's start or a short word.
    m_input->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 10);
}

void FindBar::layOut()
{
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_input, 0, 0);
    layout->addWidget(m_find, 0, 1);
    layout->addWidget(m_findText, 0, 2);
    layout->addWidget(m_field, 0, 3);
    layout->addWidget(m_jump, 0, 4);
    layout->addWidget(m_close, 0, 5);
    layout->addWidget(m_error, 1, 0, 1, 6);
    // "Act on all matches…" under Jump and the close button, not under the close button
    // alone: there it made the last column its width and the bar 100 px wider than a laptop's
    // window has room for beside the details and the worker panel (issue 49).
    layout->addWidget(m_status, 2, 0);
    layout->addWidget(m_progress, 2, 1, 1, 2);
    layout->addWidget(m_stop, 2, 3);
    layout->addWidget(m_act, 2, 4, 1, 2);
    layout->addWidget(m_matches, 3, 0, 1, 6);
    layout->setColumnStretch(0, 1);
}

void FindBar::connectControls()
{
    m_matches->viewport()->installEventFilter(this);
    connect(m_field, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_fieldOf[static_cast<int>(m_set)] = index; });
    connect(m_find, &QPushButton::clicked, this, [this] { m_plain ? findText() : findId(); });
    connect(m_findText, &QPushButton::clicked, this, &FindBar::findText);
    connect(m_act, &QPushButton::clicked, this, &FindBar::actOnMatchesRequested);
    connect(m_jump, &QPushButton::clicked, this, &FindBar::jumpToTime);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        emit searchCancelled();
        setSearching(false);
    });
    connect(m_matches, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        // A match marked gone is asked about again: the answer says where it went.
        if (item)
            emit memberChosen(item->data(kMemberRole).toString());
    });
    connect(m_matches, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (m_pressedCurrent)
            emit memberChosen(item->data(kMemberRole).toString());
    });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &QWidget::hide);
    connect(m_input, &QLineEdit::returnPressed, this, &FindBar::onReturnPressed);
    connect(m_input, &QLineEdit::textChanged, this, [this] { m_error->setError({}); });
}

void FindBar::onReturnPressed()
{
    // A time-looking entry jumps; anything else is an id, or a member's text.
    const QString text = m_input->text().trimmed();
    bool time = false;
    try {
        parseWhen(text, 0);
        time = true;
    } catch (const delayq::Error&) {
    }
    if (time)
        jumpToTime();
    else if (m_plain || field() != delayq::ScanField::Payload)
        findText(); // the mode shown beside Find text ("in last errors", "in workers")
    else
        findId();
}

void FindBar::setQueue(const QString& queue)
{
    if (queue == m_queue)
        return;
    m_queue = queue;
    setError({});
    setPlain(m_plain); // its matches and their count go too
}

void FindBar::setPlain(bool plain)
{
    m_plain = plain;
    m_find->setText(plain ? tr("Find text") : tr("Find id"));
    m_input->setPlaceholderText(
        plain ? tr("Text in the messages, or a time: 2026-12-01 09:30, now, +10m, -1h")
              : tr("Task id, or a time: 2026-12-01 09:30, now, +10m, -1h"));
    m_input->setToolTip(m_input->placeholderText());
    m_findText->setVisible(!plain);
    m_field->setVisible(!plain);
    m_matches->clear();
    m_matchCount = 0;
    m_goneCount = 0;
    m_showsCount = false;
    m_status->clear();
    setSearching(false);
    m_act->setVisible(false);
    m_status->setVisible(false);
    m_matches->setVisible(false);
}

bool FindBar::searchesErrors() const
{
    return field() == delayq::ScanField::Error;
}

delayq::ScanField FindBar::field() const
{
    if (m_plain)
        return delayq::ScanField::Payload;
    switch (m_field->currentIndex()) {
    case 1:
        return delayq::ScanField::Error;
    case 2:
        return delayq::ScanField::Worker;
    default:
        return delayq::ScanField::Payload;
    }
}

void FindBar::findInField(delayq::ScanField field, const QString& text)
{
    m_field->setCurrentIndex(field == delayq::ScanField::Error    ? 1
                             : field == delayq::ScanField::Worker ? 2
                                                                  : 0);
    m_input->setText(text);
    activate();
    findText();
}

void FindBar::setSet(TaskSet set)
{
    m_set = set;
    m_field->setCurrentIndex(m_fieldOf[static_cast<int>(set)]);
}

QStringList FindBar::liveMatches() const
{
    QStringList ids;
    for (int i = 0; i < m_matches->count(); ++i)
        if (!m_matches->item(i)->data(kGoneRole).toBool())
            ids.append(m_matches->item(i)->data(kMemberRole).toString());
    return ids;
}

void FindBar::markGone(const QString& id, const QString& note)
{
    for (int i = 0; i < m_matches->count(); ++i) {
        QListWidgetItem* item = m_matches->item(i);
        if (item->data(kGoneRole).toBool() || item->data(kMemberRole).toString() != id)
            continue;
        item->setData(kGoneRole, true);
        item->setText(QStringLiteral("%1   (%2)").arg(item->text(), note));
        item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        QFont font = item->font();
        font.setStrikeOut(true);
        item->setFont(font);
        item->setToolTip(note);
        ++m_goneCount;
    }
    if (m_showsCount)
        m_status->setText(foundText());
}

void FindBar::setMatchScore(const QString& id, qint64 score)
{
    for (int i = 0; i < m_matches->count(); ++i) {
        QListWidgetItem* item = m_matches->item(i);
        if (item->data(kGoneRole).toBool() || item->data(kMemberRole).toString() != id ||
            !item->data(kRestRole).isValid() || item->data(kScoreRole).toLongLong() == score)
            continue;
        item->setData(kScoreRole, score);
        item->setText(
            QStringLiteral("%1   %2").arg(QString::fromStdString(delayq::formatTime(score, false)),
                                          item->data(kRestRole).toString()));
    }
}

QString FindBar::foundText() const
{
    QLocale locale;
    const QString found = tr("%1 found").arg(locale.toString(m_matchCount - m_goneCount));
    return m_goneCount == 0 ? found
                            : tr("%1; %2 no longer match").arg(found, locale.toString(m_goneCount));
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_matches->viewport() && event->type() == QEvent::MouseButtonPress) {
        const auto* press = static_cast<QMouseEvent*>(event);
        QListWidgetItem* item = m_matches->itemAt(press->position().toPoint());
        m_pressedCurrent = item && item == m_matches->currentItem();
    }
    return QWidget::eventFilter(watched, event);
}

void FindBar::setWritable(bool writable)
{
    m_act->setEnabled(writable);
    m_act->setToolTip(writable ? tr("Cancel, reschedule, requeue or delete every task the "
                                    "search matches, not only those listed")
                               : tr("Read-only session: no bulk actions"));
}

void FindBar::activate()
{
    show();
    m_input->setFocus();
    m_input->selectAll();
}

void FindBar::setError(const QString& message)
{
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;")); // FieldError's red
    m_error->setError(message);
    m_error->setToolTip(message);
}

void FindBar::setNote(const QString& message)
{
    // The error's row, which spans the bar (the status beside the progress is a narrow
    // column at 1024 px), in the text's own colour: it is an answer, not a refusal.
    m_error->setStyleSheet({});
    m_error->setError(message);
    m_error->setToolTip(message);
}

qint64 FindBar::parseWhen(const QString& text, qint64 nowMs)
{
    const std::string s = text.trimmed().toStdString();
    if (s == "now")
        return nowMs;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        const long long d = delayq::parseDuration(s.substr(1));
        return s[0] == '+' ? nowMs + d : nowMs - d;
    }
    return delayq::parseTime(s);
}

void FindBar::findId()
{
    const QString id = m_input->text().trimmed();
    if (m_error->passes([&id] { delayq::Keys::validateTaskId(id.toStdString()); }))
        emit findIdRequested(id);
}

void FindBar::findText()
{
    // Not trimmed: a member may well differ from another by its spaces.
    const QString text = m_input->text();
    if (text.isEmpty()) {
        m_error->setError(m_plain ? tr("type some text the messages contain")
                                  : tr("type some text the tasks contain"));
        return;
    }
    m_act->setVisible(!m_plain);
    m_matches->clear();
    m_matchCount = 0;
    m_goneCount = 0;
    m_showsCount = false;
    m_progress->setValue(0);
    m_status->setText(tr("searching…"));
    m_status->setVisible(true);
    m_matches->setVisible(true);
    setSearching(true);
    emit findTextRequested(text);
}

void FindBar::addMatch(const QString& text, const QString& key)
{
    auto* item = new QListWidgetItem(text);
    item->setData(kMemberRole, key);
    m_matches->addItem(item);
    ++m_matchCount;
}

void FindBar::addSearchStep(const PlainScanResult& step)
{
    for (const TaskRow& row : step.matches)
        addMatch(QStringLiteral("%1   %2").arg(
                     QString::fromStdString(delayq::formatTime(row.due, false)),
                     MemberText::displayText(row.id.left(300))),
                 row.id);
    showStep(step.scanned, step.total, step.finished, step.error, step.cancelled, step.capped);
}

void FindBar::addTaskStep(const MatchScanResult& step)
{
    for (const TaskRow& row : step.matches) {
        const QString found = step.filter.field == delayq::ScanField::Error
                                  ? ErrorText::causeFirst(row.lastError)
                              : step.filter.field == delayq::ScanField::Worker
                                  ? row.worker
                                  : MemberText::displayBytes(row.payload.left(300).toStdString());
        const QString rest = QStringLiteral("%1   %2").arg(MemberText::displayText(row.id),
                                                           found.simplified().left(200));
        addMatch(QStringLiteral("%1   %2").arg(
                     QString::fromStdString(delayq::formatTime(row.score, false)), rest),
                 row.id);
        QListWidgetItem* item = m_matches->item(m_matches->count() - 1);
        item->setData(kScoreRole, row.score);
        item->setData(kRestRole, rest);
    }
    showStep(step.read, step.total, step.finished, step.error, step.cancelled, step.capped);
}

void FindBar::showStep(qint64 read, qint64 total, bool finished, const RequestError& error,
                       bool cancelled, bool capped)
{
    QLocale locale;
    if (total > 0)
        m_progress->setValue(int(qMin<qint64>(1000, read * 1000 / total)));
    const QString found = tr("%1 found, %2 of %3 read")
                              .arg(locale.toString(m_matchCount - m_goneCount),
                                   locale.toString(read), locale.toString(total));
    if (!finished) {
        m_status->setText(found + QStringLiteral("…"));
        return;
    }
    setSearching(false);
    if (!error.isEmpty()) {
        m_status->setText(tr("search stopped: %1").arg(error.message));
    } else if (cancelled) {
        m_status->setText(tr("stopped: %1").arg(found));
    } else if (capped) {
        m_status->setText(tr("the first %1 matches (refine the text for the others)")
                              .arg(locale.toString(m_matchCount)));
    } else {
        m_progress->setValue(1000);
        m_showsCount = m_matchCount > 0;
        m_status->setText(m_matchCount == 0
                              ? (m_plain ? tr("no message contains this text")
                                         : tr("no task of this tab contains this text"))
                              : foundText());
    }
}

void FindBar::setSearching(bool searching)
{
    m_progress->setVisible(searching);
    m_stop->setVisible(searching);
}

void FindBar::jumpToTime()
{
    m_error->passes([this] {
        emit jumpToTimeRequested(parseWhen(m_input->text(), QDateTime::currentMSecsSinceEpoch()));
    });
}

} // namespace delayq::ui
