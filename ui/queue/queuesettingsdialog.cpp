#include "queue/queuesettingsdialog.h"

#include "client/adminclient.h"
#include "client/queueclient.h"
#include "widgets/dialogbuttons.h"
#include "widgets/duetext.h"
#include "widgets/fielderror.h"
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpacerItem>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace delayq::ui {

namespace {

const char* const kKeys[] = {"max_attempts",   "backoff", "lease_ms",   "max_payload",  "history",
                             "rate",           "burst",   "cap",        "group_cap",    "dead_max",
                             "dead_max_bytes", "max_age", "group_rate", "dedup_window", "dedup_max",
                             "bin_keep",       "bin_max", "bin_bytes"};
constexpr int kFirstLimit = 5; // rate, burst, cap, group cap and group rate: empty means off
constexpr int kGroupCap = 8;   // on the order's row, not the limits'
// Dead tasks bounded and expiry (docs/design/bounds.md): two rows of their own.
constexpr int kDeadMax = 9;
constexpr int kDeadMaxBytes = 10;
constexpr int kMaxAge = 11;
constexpr int kGroupRate = 12; // on the order's row, beside the group cap
// The dedup window (docs/design/keep.md) and the recycle bin (docs/design/bin.md): two rows
// behind their own button.
constexpr int kDedupWindow = 13;
constexpr int kDedupMax = 14;
constexpr int kBinKeep = 15;
constexpr int kBinMax = 16;
constexpr int kBinBytes = 17;
bool isLimit(int field)
{
    return (field >= kFirstLimit && field <= kGroupCap) || field == kGroupRate;
}
// Empty is "off" for these too: the limits, and the windows and bounds that have an off.
bool emptyIsOff(int field)
{
    return isLimit(field) || field == kDedupWindow || field == kBinKeep || field == kBinMax ||
           field == kBinBytes;
}
constexpr int kFields = std::size(kKeys);
constexpr int kPreviewRetries = 5;

QLabel* noteLabel(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// The room of a text that comes, goes or changes while the operator types (a refusal, the
// preview): `lines` lines, kept whether shown or not, so the dialog never grows and no field
// moves under the pointer. A longer text is cut there and whole in the tooltip.
void keepRoom(QLabel* label, int lines)
{
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setFixedHeight(label->fontMetrics().lineSpacing() * lines + 2);
    QSizePolicy kept(QSizePolicy::Ignored, QSizePolicy::Fixed);
    kept.setRetainSizeWhenHidden(true);
    label->setSizePolicy(kept);
}

} // namespace

QueueSettingsDialog::QueueSettingsDialog(AdminClient* client, const QString& queue, bool readOnly,
                                         QWidget* parent)
    : QDialog(parent), m_client(client), m_queue(queue), m_readOnly(readOnly)
{
    setWindowTitle(tr("Settings of %1").arg(queue));
    // The settings in a form of their own, and the two parts (dead tasks and expiry, dedup
    // and recycle bin) below it: a part shown takes the form's place.
    auto* outer = new QVBoxLayout(this);
    m_main = new QWidget(this);
    auto* form = new QFormLayout(m_main);
    form->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_main);
    // Wrapped text (preview, errors, notes) gets the whole field column on every style.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const QString labels[] = {
        tr("Max attempts"), tr("Backoff"), tr("Lease"),      tr("Max payload"),  tr("Task history"),
        tr("Rate limit"),   tr("Burst"),   tr("Cap"),        tr("Group cap"),    tr("Dead tasks"),
        tr("Bytes"),        tr("Max age"), tr("Group rate"), tr("Dedup window"), tr("Ids kept"),
        tr("Recycle bin"),  tr("Tasks"),   tr("Bytes")};
    std::copy(std::begin(labels), std::end(labels), std::begin(m_fieldLabels));
    const QString hints[] = {tr("1 to 1000000"),
                             tr("a list like 5s,20s,30s or exp:1s:5m"),
                             tr("how long a worker holds a task, e.g. 30s"),
                             tr("bytes, 1 to 536870912"),
                             tr("events kept per task, 0 to 100 (0 = off)"),
                             tr("tasks started per interval, e.g. 50/s, 3000/1m; off"),
                             tr("tasks started at once after a quiet spell; off = the rate's"),
                             tr("tasks active at once across every worker; off"),
                             tr("tasks of one group active at once; empty = off"),
                             tr("dead tasks kept, the oldest dropped first; off"),
                             tr("their bytes, e.g. 64MB; off"),
                             tr("a task not started this long after its push never runs; off"),
                             tr("each group's own rate in fair order, e.g. 5/s; empty = off"),
                             tr("a finished task's id stays refused this long, e.g. 1h; off"),
                             tr("ids remembered at most, the soonest to end dropped first"),
                             tr("removed tasks stay restorable this long, e.g. 24h; off"),
                             tr("tasks kept at most, the oldest dropped first; off"),
                             tr("their bytes, e.g. 67108864; off")};
    // What push.lua and nack.lua do with each: the difference decides whether a change
    // reaches the tasks already queued.
    const QString notes[] = {
        tr("Copied into each task when it is pushed: tasks already queued keep the max "
           "attempts they were pushed with."),
        tr("Read each time a task fails: a new backoff applies to tasks already queued too, "
           "except those pushed with a backoff of their own."),
        tr("Each push, claim, failure, reschedule and ack of a task is recorded, shown under "
           "History. It costs Redis about twice the CPU of a claim and ack (delayq bench), so "
           "it is off by default; 0 deletes every history of the queue.")};
    for (int i = 0; i < kFields; ++i) {
        m_fields[i] = new QLineEdit(this);
        m_fields[i]->setPlaceholderText(hints[i]);
        m_fields[i]->setEnabled(false); // until the settings are read
        m_errors[i] = new FieldError(this);
        // The backoff's refusal explains both of its forms: three lines; the others' two.
        keepRoom(m_errors[i], i == 1 ? 3 : 2);
        connect(m_fields[i], &QLineEdit::textChanged, this, &QueueSettingsDialog::validate);
        if (i >= kFirstLimit)
            continue; // rows of their own, below
        QWidget* box = FieldError::below(m_fields[i], m_errors[i], this);
        if (i == 0)
            box->layout()->addWidget(m_notes[0] = noteLabel(notes[0], this));
        if (i == 4)
            box->layout()->addWidget(m_notes[2] = noteLabel(notes[2], this));
        form->addRow(labels[i], box);
        if (i == 1) {
            m_preview = new QLabel(this);
            m_preview->setTextFormat(Qt::PlainText);
            keepRoom(m_preview, 2);
            form->addRow(tr("Retries after"), m_preview);
            // Rows of the form, not a box in one: the form sees the preview's new height
            // as it wraps (a box's cached height did not follow it).
            form->addRow(nullptr, m_notes[1] = noteLabel(notes[1], this));
        }
    }
    // The flow limits (issue 51) on one row, so the dialog still fits a laptop's screen: the
    // rate, then burst and cap with their names. Under them, in one place, what the three
    // mean together as they are typed, or the first refusal among them instead.
    auto* limits = new QWidget(this);
    auto* row = new QHBoxLayout(limits);
    row->setContentsMargins(0, 0, 0, 0);
    for (int i = kFirstLimit; i < kGroupCap; ++i) {
        m_fields[i]->setToolTip(hints[i]);
        if (i > kFirstLimit)
            row->addWidget(new QLabel(labels[i], this));
        row->addWidget(m_fields[i], 1);
    }
    form->addRow(labels[kFirstLimit], limits);
    // Fair order and its group cap on the next row: the preview under both says them too.
    auto* fair = new QWidget(this);
    auto* fairRow = new QHBoxLayout(fair);
    fairRow->setContentsMargins(0, 0, 0, 0);
    m_order = new QComboBox(this);
    m_order->addItem(tr("Due time"), QStringLiteral("due"));
    m_order->addItem(tr("Fair: groups in turn, then priority"), QStringLiteral("fair"));
    m_order->setEnabled(false); // until the settings are read
    connect(m_order, &QComboBox::currentIndexChanged, this, &QueueSettingsDialog::validate);
    fairRow->addWidget(m_order, 2);
    fairRow->addWidget(new QLabel(labels[kGroupCap], this));
    m_fields[kGroupCap]->setToolTip(hints[kGroupCap]);
    fairRow->addWidget(m_fields[kGroupCap], 1);
    fairRow->addWidget(new QLabel(labels[kGroupRate], this));
    m_fields[kGroupRate]->setToolTip(hints[kGroupRate]);
    fairRow->addWidget(m_fields[kGroupRate], 1);
    form->addRow(tr("Order"), fair);
    m_flowPreview = new QLabel(this);
    m_flowPreview->setTextFormat(Qt::PlainText);
    keepRoom(m_flowPreview, 3);
    auto* said = new QWidget(this);
    auto* stack = new QGridLayout(said);
    stack->setContentsMargins(0, 0, 0, 0);
    stack->addWidget(m_flowPreview, 0, 0);
    for (int i = kFirstLimit; i < kFields; ++i)
        if (isLimit(i))
            stack->addWidget(m_errors[i], 0, 0);
    form->addRow(tr("Limits"), said);
    // The dead bound and expiry (docs/design/bounds.md), each row with its refusal under it
    // and what it costs: shown by a button beside Save, so the dialog still fits a laptop's
    // screen until they are asked for (it grows by their rows then: fitHeight).
    m_bounds = new QWidget(this);
    auto* boundsForm = new QFormLayout(m_bounds);
    boundsForm->setContentsMargins(0, 0, 0, 0);
    boundsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* dead = new QWidget(this);
    auto* deadRow = new QHBoxLayout(dead);
    deadRow->setContentsMargins(0, 0, 0, 0);
    deadRow->addWidget(m_fields[kDeadMax], 1);
    deadRow->addWidget(new QLabel(labels[kDeadMaxBytes], this));
    deadRow->addWidget(m_fields[kDeadMaxBytes], 1);
    m_fields[kDeadMax]->setToolTip(hints[kDeadMax]);
    m_fields[kDeadMaxBytes]->setToolTip(hints[kDeadMaxBytes]);
    auto* deadBox = new QWidget(this);
    auto* deadStack = new QVBoxLayout(deadBox);
    deadStack->setContentsMargins(0, 0, 0, 0);
    deadStack->addWidget(dead);
    // The two refusals share one place (each keeps its room: nothing moves as one comes).
    auto* deadSaid = new QWidget(this);
    auto* deadErrors = new QGridLayout(deadSaid);
    deadErrors->setContentsMargins(0, 0, 0, 0);
    deadErrors->addWidget(m_errors[kDeadMax], 0, 0);
    deadErrors->addWidget(m_errors[kDeadMaxBytes], 0, 0);
    deadStack->addWidget(deadSaid);
    deadStack->addWidget(noteLabel(
        tr("Past either bound the oldest dead tasks are dropped, counted and audited. Redis "
           "keeps a dead task in about 2.2 times its bytes (id, payload, last error): the "
           "defaults, 100000 tasks or 64 MB, hold at most about 140 MB."),
        this));
    boundsForm->addRow(labels[kDeadMax], deadBox);
    auto* expiry = new QWidget(this);
    auto* expiryRow = new QHBoxLayout(expiry);
    expiryRow->setContentsMargins(0, 0, 0, 0);
    expiryRow->addWidget(m_fields[kMaxAge], 1);
    m_fields[kMaxAge]->setToolTip(hints[kMaxAge]);
    m_expiredTo = new QComboBox(this);
    m_expiredTo->addItem(tr("then to dead"), QStringLiteral("dead"));
    m_expiredTo->addItem(tr("then dropped (only counted)"), QStringLiteral("drop"));
    m_expiredTo->setEnabled(false); // until the settings are read
    connect(m_expiredTo, &QComboBox::currentIndexChanged, this, &QueueSettingsDialog::validate);
    expiryRow->addWidget(m_expiredTo, 1);
    auto* expiryBox = new QWidget(this);
    auto* expiryStack = new QVBoxLayout(expiryBox);
    expiryStack->setContentsMargins(0, 0, 0, 0);
    expiryStack->addWidget(expiry);
    expiryStack->addWidget(m_errors[kMaxAge]);
    expiryStack->addWidget(
        noteLabel(tr("Applies to tasks already queued too (counted from their push), except "
                     "those pushed with an expiry of their own. A claim's check costs no "
                     "measurable Redis CPU."),
                  this));
    boundsForm->addRow(labels[kMaxAge], expiryBox);
    outer->addWidget(m_bounds);
    m_bounds->setVisible(false);
    m_keep = keepRows();
    outer->addWidget(m_keep);
    m_keep->setVisible(false);
    // What is left of the height below what is shown, so Save stays at the bottom whichever
    // part is shown.
    outer->addStretch(1);
    m_elsewhere = new FieldError(this);
    outer->addWidget(m_elsewhere);
    m_general = new FieldError(this);
    outer->addWidget(m_general);
    if (readOnly)
        m_general->setError(tr("This session is read-only: the settings cannot be changed."));
    m_buttons = DialogButtons::wired(
        new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this), this);
    saveButton()->setEnabled(false);
    m_boundsButton =
        m_buttons->addButton(tr("Dead tasks and expiry…"), QDialogButtonBox::ActionRole);
    m_boundsButton->setCheckable(true);
    m_keepButton = m_buttons->addButton(tr("Dedup and recycle bin…"), QDialogButtonBox::ActionRole);
    m_keepButton->setCheckable(true);
    // A part takes the place of the rows above it, and one part at a time: the dialog with
    // either beside the rest would not fit a 1024 x 700 screen (930 px). Unchecked, the rest
    // comes back.
    auto showPart = [this](QPushButton* other, bool shown) {
        if (shown) {
            const QSignalBlocker quiet(other);
            other->setChecked(false);
        }
        const bool bounds = m_boundsButton->isChecked();
        const bool keep = m_keepButton->isChecked();
        // What goes, before what comes: a part shown while what it replaces is still there
        // would raise the dialog's minimum to both, and the dialog would keep that height.
        for (const bool showing : {false, true}) {
            if ((!bounds && !keep) == showing)
                m_main->setVisible(showing);
            if (bounds == showing)
                m_bounds->setVisible(showing);
            if (keep == showing)
                m_keep->setVisible(showing);
        }
        validate(); // what is refused out of sight is said now (and fits the height)
    };
    connect(m_boundsButton, &QPushButton::toggled, this,
            [this, showPart](bool shown) { showPart(m_keepButton, shown); });
    connect(m_keepButton, &QPushButton::toggled, this,
            [this, showPart](bool shown) { showPart(m_boundsButton, shown); });
    outer->addWidget(m_buttons);
    // Wide enough for a preview of five retries, the limits' sentence with all three, a core
    // error on a line or two, and the order's row (order, group cap, group rate) with room to
    // type; the height follows what is shown (fitHeight).
    setMinimumWidth(std::max(fontMetrics().averageCharWidth() * 100, form->minimumSize().width()));
    resize(minimumWidth(), heightForWidth(minimumWidth()));
    connect(client->queues(), &QueueClient::configLoaded, this, &QueueSettingsDialog::onConfig);
    m_loadTag = AdminClient::newTag();
    client->queues()->loadConfig(m_loadTag, queue);
}

QWidget* QueueSettingsDialog::keepRows()
{
    auto* keep = new QWidget(this);
    auto* keepForm = new QFormLayout(keep);
    keepForm->setContentsMargins(0, 0, 0, 0);
    keepForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A row of fields, their refusals sharing one place under them (each keeps its room:
    // nothing moves as one comes), and what the setting costs.
    auto addRow = [&](const QString& label, const QList<int>& fields, const QString& note) {
        auto* box = new QWidget(this);
        auto* stackLayout = new QVBoxLayout(box);
        stackLayout->setContentsMargins(0, 0, 0, 0);
        auto* row = new QWidget(this);
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto* said = new QWidget(this);
        auto* errors = new QGridLayout(said);
        errors->setContentsMargins(0, 0, 0, 0);
        for (int field : fields) {
            if (field != fields.first())
                rowLayout->addWidget(new QLabel(m_fieldLabels[field], this));
            rowLayout->addWidget(m_fields[field], 1);
            m_fields[field]->setToolTip(m_fields[field]->placeholderText());
            errors->addWidget(m_errors[field], 0, 0);
        }
        stackLayout->addWidget(row);
        stackLayout->addWidget(said);
        stackLayout->addWidget(noteLabel(note, this));
        keepForm->addRow(label, box);
    };
    addRow(m_fieldLabels[kDedupWindow], {kDedupWindow, kDedupMax},
           tr("A task's id stays refused this long after it is acked or dies (recently_done); "
              "a push may ask for its own window. Each remembered id costs about 124 bytes of "
              "Redis memory (Ids kept bounds how many), and a push about 1.1 times the Redis "
              "CPU of one without a window."));
    addRow(m_fieldLabels[kBinKeep], {kBinKeep, kBinMax, kBinBytes},
           tr("What cancel, purge and delete of dead tasks remove stays restorable this long "
              "(Undo, Queue → Recycle Bin…), the oldest dropped first past either bound. Redis "
              "keeps the removed tasks' bytes, up to Bytes (64 MB by default); off or 0 in any "
              "of the three turns the bin off and deletes what it holds."));
    return keep;
}

QLineEdit* QueueSettingsDialog::fieldOf(const QString& key) const
{
    const int at = indexOf(key);
    return at < 0 ? nullptr : m_fields[at];
}

int QueueSettingsDialog::indexOf(const QString& key)
{
    for (int i = 0; i < kFields; ++i)
        if (key == QLatin1String(kKeys[i]))
            return i;
    return -1;
}

QPushButton* QueueSettingsDialog::saveButton() const
{
    return m_buttons->button(QDialogButtonBox::Save);
}

void QueueSettingsDialog::onConfig(const QueueConfigResult& result)
{
    if (result.tag == m_writeTag && m_writeTag != 0) {
        m_writeTag = 0;
        if (!result.error.isEmpty()) {
            m_general->setError(result.error.text());
            validate();
            return;
        }
        emit saved(result);
        QDialog::accept();
        return;
    }
    if (result.tag != m_loadTag)
        return;
    if (!result.error.isEmpty()) {
        m_general->setError(result.error.text());
        emit loaded();
        return;
    }
    m_loadedValues[0] = QString::number(result.maxAttempts);
    m_loadedValues[1] = result.backoff;
    m_loadedValues[2] = QString::number(result.leaseMs);
    m_loadedValues[3] = QString::number(result.maxPayload);
    m_loadedValues[4] = QString::number(result.history);
    m_fields[0]->setText(m_loadedValues[0]);
    m_fields[1]->setText(backoffText(result.backoff));
    m_fields[2]->setText(QString::fromStdString(delayq::formatDuration(result.leaseMs)));
    m_fields[3]->setText(m_loadedValues[3]);
    m_fields[4]->setText(m_loadedValues[4]);
    // The stored forms lua/config.lua keeps ("0" = off), and as an operator types them.
    m_loadedValues[5] = result.rateTasks > 0
                            ? QStringLiteral("%1/%2").arg(result.rateTasks).arg(result.rateMs)
                            : QStringLiteral("0");
    m_loadedValues[6] = QString::number(result.burst);
    m_loadedValues[7] = QString::number(result.cap);
    const QString off = QStringLiteral("off");
    m_fields[5]->setText(rateText(result.rateTasks, result.rateMs));
    m_fields[6]->setText(result.burst > 0 ? m_loadedValues[6] : off);
    m_fields[7]->setText(result.cap > 0 ? m_loadedValues[7] : off);
    m_loadedValues[kGroupCap] = QString::number(result.groupCap);
    m_fields[kGroupCap]->setText(result.groupCap > 0 ? m_loadedValues[kGroupCap] : QString());
    m_loadedOrder = result.fair ? QStringLiteral("fair") : QStringLiteral("due");
    m_order->setCurrentIndex(m_order->findData(m_loadedOrder));
    m_loadedValues[kDeadMax] = QString::number(result.deadMax);
    m_loadedValues[kDeadMaxBytes] = QString::number(result.deadMaxBytes);
    m_loadedValues[kMaxAge] = QString::number(result.maxAgeMs);
    m_fields[kDeadMax]->setText(result.deadMax > 0 ? m_loadedValues[kDeadMax] : off);
    m_fields[kDeadMaxBytes]->setText(result.deadMaxBytes > 0 ? m_loadedValues[kDeadMaxBytes] : off);
    m_fields[kMaxAge]->setText(result.maxAgeMs > 0
                                   ? QString::fromStdString(delayq::formatDuration(result.maxAgeMs))
                                   : off);
    m_loadedValues[kGroupRate] =
        result.groupRateTasks > 0
            ? QStringLiteral("%1/%2").arg(result.groupRateTasks).arg(result.groupRateMs)
            : QStringLiteral("0");
    m_fields[kGroupRate]->setText(result.groupRateTasks > 0
                                      ? rateText(result.groupRateTasks, result.groupRateMs)
                                      : QString());
    // The dedup window and the recycle bin, as `delayq config` shows them ("0" = off).
    auto duration = [&off](qint64 ms) {
        return ms > 0 ? QString::fromStdString(delayq::formatDuration(ms)) : off;
    };
    m_loadedValues[kDedupWindow] = QString::number(result.dedupWindowMs);
    m_loadedValues[kDedupMax] = QString::number(result.dedupMax);
    m_loadedValues[kBinKeep] = QString::number(result.binKeepMs);
    m_loadedValues[kBinMax] = QString::number(result.binMax);
    m_loadedValues[kBinBytes] = QString::number(result.binBytes);
    m_fields[kDedupWindow]->setText(duration(result.dedupWindowMs));
    m_fields[kDedupMax]->setText(m_loadedValues[kDedupMax]);
    m_fields[kBinKeep]->setText(duration(result.binKeepMs));
    m_fields[kBinMax]->setText(result.binMax > 0 ? m_loadedValues[kBinMax] : off);
    m_fields[kBinBytes]->setText(result.binBytes > 0 ? m_loadedValues[kBinBytes] : off);
    m_loadedExpiredTo = result.expiredToDrop ? QStringLiteral("drop") : QStringLiteral("dead");
    m_expiredTo->setCurrentIndex(m_expiredTo->findData(m_loadedExpiredTo));
    m_loaded = true;
    for (auto* field : m_fields)
        field->setEnabled(!m_readOnly);
    m_order->setEnabled(!m_readOnly);
    m_expiredTo->setEnabled(!m_readOnly);
    validate();
    emit loaded();
}

bool QueueSettingsDialog::validate()
{
    bool fine = true;
    int retries = -1; // max attempts not valid: the preview shows no end
    bool limitsFine = true;
    QString firstLimitError;
    qint64 limits[4] = {}; // rate tasks, burst, cap, group cap as stored; the rate's ms beside
    qint64 rateMs = 0;
    qint64 groupRate[2] = {}; // tasks, ms
    QString elsewhere;        // the first refusal in a part not shown
    for (int i = 0; i < kFields; ++i) {
        QString error;
        try {
            const std::string stored =
                delayq::Queue::normalizeConfig(kKeys[i], typed(i).toStdString());
            if (i == 0)
                retries = std::stoi(stored) - 1; // nack.lua: the last attempt's failure is final
            if (i == 1)
                updatePreview(QString::fromStdString(stored), retries);
            if (isLimit(i)) {
                const QStringList parts = QString::fromStdString(stored).split(QLatin1Char('/'));
                if (i == kGroupRate) {
                    groupRate[0] = parts.value(0).toLongLong();
                    groupRate[1] = parts.value(1).toLongLong();
                } else {
                    limits[i - kFirstLimit] = parts.value(0).toLongLong();
                }
                if (i == kFirstLimit)
                    rateMs = parts.value(1).toLongLong();
            }
        } catch (const delayq::Error& e) {
            error = QString::fromUtf8(e.what());
            // Every refusal names its setting: a duration or a rate the parser refused says
            // only what was wrong with the text ("rate '0': …" of the group rate).
            const QString key = QString::fromLatin1(kKeys[i]);
            if (!error.contains(key))
                error = key + QStringLiteral(": ") + error;
            if (i == 1)
                m_preview->setText(QStringLiteral("—"));
            if (isLimit(i))
                limitsFine = false;
        }
        // The limits share one place: only the first refusal among them is said there.
        const QString said =
            m_loaded && (!isLimit(i) || firstLimitError.isEmpty()) ? error : QString();
        if (isLimit(i) && !error.isEmpty() && firstLimitError.isEmpty())
            firstLimitError = error;
        m_errors[i]->setError(said);
        m_errors[i]->setToolTip(said);
        fine = fine && error.isEmpty();
        // A refusal in a part not shown is said below, so a greyed Save is never a riddle.
        const QWidget* part = i == kDeadMax || i == kDeadMaxBytes || i == kMaxAge ? m_bounds
                              : i >= kDedupWindow                                 ? m_keep
                                                                                  : m_main;
        if (elsewhere.isEmpty() && m_loaded && !error.isEmpty() && part->isHidden())
            elsewhere = tr("Not saved: %1").arg(error);
    }
    m_elsewhere->setError(elsewhere);
    m_elsewhere->setToolTip(elsewhere);
    const bool fair = m_order->currentData().toString() == QLatin1String("fair");
    m_flowPreview->setText(limitsFine ? flowText(limits[0], rateMs, limits[1], limits[2], fair,
                                                 limits[3], groupRate[0], groupRate[1])
                                      : QStringLiteral("—"));
    m_flowPreview->setVisible(limitsFine || !m_loaded);
    m_flowPreview->setToolTip(m_flowPreview->text());
    saveButton()->setEnabled(fine && m_loaded && !m_readOnly && m_writeTag == 0);
    m_preview->setToolTip(m_preview->text());
    fitHeight();
    return fine;
}

void QueueSettingsDialog::fitHeight()
{
    // A window does not grow for a label that wraps onto more lines: without this a
    // refusal or a longer preview was cut off at the bottom.
    const int wanted = heightForWidth(width());
    if (wanted > height())
        resize(width(), wanted);
}

bool QueueSettingsDialog::event(QEvent* event)
{
    const bool done = QDialog::event(event);
    // The layout has just taken in a text that came or went (it runs before this).
    if (event->type() == QEvent::LayoutRequest)
        fitHeight();
    return done;
}

void QueueSettingsDialog::updatePreview(const QString& normalized, int retries)
{
    if (retries == 0) {
        m_preview->setText(tr("none: a task that fails once is dead"));
        return;
    }
    const int shown = retries < 0 ? kPreviewRetries : std::min(retries, kPreviewRetries);
    const QList<qint64> delays = retryDelays(normalized, shown);
    QStringList parts;
    for (int i = 0; i < shown; ++i)
        parts.append(tr("#%1: %2").arg(i + 1).arg(DueText::duration(delays[i])));
    if (retries < 0) {
        parts.append(QStringLiteral("…"));
    } else if (retries > shown) {
        // The last retry's delay too. Past a list's end, or some 60 doublings, every delay
        // is the same, so a million attempts cost no more than 4096 delays.
        const qint64 last = retryDelays(normalized, std::min(retries, 4096)).last();
        parts.append(tr("… #%1: %2").arg(retries).arg(DueText::duration(last)));
    }
    m_preview->setText(parts.join(QStringLiteral(", ")));
}

QList<qint64> QueueSettingsDialog::retryDelays(const QString& normalized, int count)
{
    QList<qint64> out;
    if (normalized.startsWith(QLatin1String("exp:"))) {
        const QStringList parts = normalized.split(QLatin1Char(':'));
        const qint64 base = parts.value(1).toLongLong();
        const qint64 max = parts.value(2).toLongLong();
        qint64 delay = base;
        for (int i = 0; i < count; ++i) {
            out.append(base < 1 || max <= base ? max : std::min(delay, max));
            delay = std::min(delay * 2, max);
        }
        return out;
    }
    QList<qint64> list;
    for (const QString& part : normalized.split(QLatin1Char(','), Qt::SkipEmptyParts))
        list.append(part.toLongLong());
    if (list.isEmpty())
        list.append(5000);
    for (int i = 0; i < count; ++i)
        out.append(list[std::min<qsizetype>(i, list.size() - 1)]);
    return out;
}

QString QueueSettingsDialog::backoffText(const QString& normalized)
{
    auto text = [](qint64 ms) { return QString::fromStdString(delayq::formatDuration(ms)); };
    if (normalized.startsWith(QLatin1String("exp:"))) {
        const QStringList parts = normalized.split(QLatin1Char(':'));
        return QStringLiteral("exp:%1:%2")
            .arg(text(parts.value(1).toLongLong()), text(parts.value(2).toLongLong()));
    }
    QStringList out;
    for (const QString& part : normalized.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.append(text(part.toLongLong()));
    return out.join(QLatin1Char(','));
}

QString QueueSettingsDialog::typed(int field) const
{
    const QString text = m_fields[field]->text().trimmed();
    return text.isEmpty() && emptyIsOff(field) ? QStringLiteral("off") : text;
}

QList<QPair<QString, QString>> QueueSettingsDialog::changedValues() const
{
    QList<QPair<QString, QString>> values;
    for (int i = 0; i < kFields; ++i) {
        const QString text = typed(i);
        const std::string stored = delayq::Queue::normalizeConfig(kKeys[i], text.toStdString());
        if (QString::fromStdString(stored) != m_loadedValues[i])
            values.append({QString::fromLatin1(kKeys[i]), text});
    }
    const QString order = m_order->currentData().toString();
    if (order != m_loadedOrder)
        values.append({QStringLiteral("order"), order});
    const QString expiredTo = m_expiredTo->currentData().toString();
    if (expiredTo != m_loadedExpiredTo)
        values.append({QStringLiteral("expired_to"), expiredTo});
    return values;
}

QString QueueSettingsDialog::rateText(qint64 tasks, qint64 ms)
{
    if (tasks <= 0 || ms <= 0)
        return QStringLiteral("off");
    // Forms normalizeConfig reads back as the same: a bare unit, else whole seconds or ms.
    const QString interval = ms == 1000       ? QStringLiteral("s")
                             : ms == 60000    ? QStringLiteral("m")
                             : ms == 3600000  ? QStringLiteral("h")
                             : ms % 1000 == 0 ? QStringLiteral("%1s").arg(ms / 1000)
                                              : QStringLiteral("%1ms").arg(ms);
    return QStringLiteral("%1/%2").arg(tasks).arg(interval);
}

QString QueueSettingsDialog::flowText(qint64 rateTasks, qint64 rateMs, qint64 burst, qint64 cap,
                                      bool fair, qint64 groupCap, qint64 groupRateTasks,
                                      qint64 groupRateMs)
{
    // claim.lua reads the group cap and the group rate in fair order only.
    QString order;
    const bool groupRate = groupRateTasks > 0 && groupRateMs > 0;
    if (fair) {
        order = groupCap == 1  ? tr("; groups take turns; at most 1 task of a group runs at once")
                : groupCap > 1 ? tr("; groups take turns; at most %1 tasks of a group run at once")
                                     .arg(QLocale().toString(groupCap))
                               : tr("; groups take turns");
        if (groupRate)
            order += tr("; each group starts at most %1 %2")
                         .arg(QLocale().toString(groupRateTasks), perText(groupRateMs));
    } else if (groupCap > 0 && groupRate) {
        order = tr("; the group cap and the group rate hold only in fair order");
    } else if (groupCap > 0) {
        order = tr("; the group cap holds only in fair order");
    } else if (groupRate) {
        order = tr("; the group rate holds only in fair order");
    }
    return limitsText(rateTasks, rateMs, burst, cap) + order;
}

QString QueueSettingsDialog::perText(qint64 ms)
{
    return ms == 1000      ? tr("per second")
           : ms == 60000   ? tr("per minute")
           : ms == 3600000 ? tr("per hour")
                           : tr("every %1").arg(DueText::duration(ms));
}

QString QueueSettingsDialog::limitsText(qint64 rateTasks, qint64 rateMs, qint64 burst, qint64 cap)
{
    const QLocale locale;
    if (rateTasks <= 0 && cap <= 0)
        return tr("no limit: tasks start as fast as the workers claim them");
    const QString per = perText(rateMs);
    const QString tasks = locale.toString(rateTasks);
    const QString atOnce = locale.toString(burst > 0 ? burst : rateTasks);
    if (cap <= 0)
        return tr("at most %1 tasks start %2, %3 at once after a quiet spell")
            .arg(tasks, per, atOnce);
    if (rateTasks <= 0)
        return tr("at most %1 run at once across every worker").arg(locale.toString(cap));
    return tr("at most %1 tasks start %2, %3 at once after a quiet spell; at most %4 run at "
              "once across every worker")
        .arg(tasks, per, atOnce, locale.toString(cap));
}

void QueueSettingsDialog::accept()
{
    if (m_readOnly || !m_loaded || m_writeTag != 0 || !validate())
        return;
    // Only what the operator changed: an unchanged field written again would record a
    // change nobody made, or undo one someone else made meanwhile.
    const QList<QPair<QString, QString>> values = changedValues();
    if (values.isEmpty()) {
        QDialog::accept();
        return;
    }
    m_general->setError({});
    m_writeTag = AdminClient::newTag();
    saveButton()->setEnabled(false);
    m_client->queues()->writeConfig(m_writeTag, m_queue, values);
}

} // namespace delayq::ui
