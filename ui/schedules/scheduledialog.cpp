#include "schedules/scheduledialog.h"

#include "client/membertext.h"
#include "widgets/dialogbuttons.h"
#include "widgets/duetext.h"
#include "widgets/fielderror.h"
#include <delayq/cron.h>
#include <delayq/error.h>
#include <delayq/queue.h>
#include <delayq/timeparse.h>

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimeZone>

namespace delayq::ui {

ScheduleDialog::ScheduleDialog(const QString& queue,
                               const std::optional<delayq::ScheduleInfo>& existing, bool utc,
                               QWidget* parent)
    : QDialog(parent), m_existing(existing), m_utc(utc)
{
    setWindowTitle(
        existing
            ? tr("Edit schedule %1 of %2").arg(QString::fromStdString(existing->rule.name), queue)
            : tr("New schedule of %1").arg(queue));
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("letters, digits, . _ - (e.g. daily-report)"));
    m_nameError = FieldError::addRow(form, tr("Name"), m_name, this);

    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Cron expression, on a time zone's clock"));
    m_kind->addItem(tr("Fixed interval (every)"));
    form->addRow(tr("Fires"), m_kind);

    // One row for the rule: the cron field or the interval field. A stacked widget, not rows
    // that come and go (see FormRows for what hidden form rows do in Qt 6.4).
    m_ruleFields = new QStackedWidget(this);
    m_cron = new QLineEdit(this);
    m_cron->setPlaceholderText(tr("minute hour day month weekday, e.g. 0 9 * * 1-5"));
    m_cronError = new FieldError(this);
    m_ruleFields->addWidget(FieldError::below(m_cron, m_cronError, this));
    m_every = new QLineEdit(this);
    m_every->setPlaceholderText(tr("at least 1s, e.g. 30s, 15m, 1h"));
    m_everyError = new FieldError(this);
    m_ruleFields->addWidget(FieldError::below(m_every, m_everyError, this));
    form->addRow(tr("Rule"), m_ruleFields);

    m_zone = new QComboBox(this);
    m_zone->setEditable(true);
    m_zone->setInsertPolicy(QComboBox::NoInsert);
    QStringList zones{QStringLiteral("UTC")};
    const QString local = QString::fromUtf8(QTimeZone::systemTimeZoneId());
    if (!local.isEmpty() && !zones.contains(local))
        zones.append(local);
    for (const char* zone : {"Europe/London", "Europe/Berlin", "America/New_York",
                             "America/Los_Angeles", "Asia/Shanghai", "Asia/Tokyo"})
        if (!zones.contains(QLatin1String(zone)))
            zones.append(QLatin1String(zone));
    m_zone->addItems(zones);
    m_zone->setToolTip(tr("A tz database name; the cron's times are read on this wall clock"));
    m_zoneError = FieldError::addRow(form, tr("Time zone"), m_zone, this);

    m_payload = new QPlainTextEdit(this);
    m_payload->setPlaceholderText(tr("the payload of every task a fire makes"));
    m_payload->setTabChangesFocus(true);
    m_payload->setMaximumHeight(90);
    form->addRow(tr("Payload"), m_payload);

    m_catchUp = new QLineEdit(QStringLiteral("1h"), this);
    m_catchUp->setToolTip(tr("After downtime, missed fires this close to now fire once each; "
                             "older ones are skipped and counted (at most 7d)"));
    m_catchUpError = FieldError::addRow(form, tr("Catch-up"), m_catchUp, this);

    m_maxAttempts = new QSpinBox(this);
    m_maxAttempts->setRange(0, 1000000000);
    m_maxAttempts->setSpecialValueText(tr("the queue's"));
    form->addRow(tr("Max attempts"), m_maxAttempts);

    m_backoff = new QLineEdit(this);
    m_backoff->setPlaceholderText(tr("the queue's (or e.g. 5s,20s,30s or exp:1s:5m)"));
    m_backoffError = FieldError::addRow(form, tr("Backoff"), m_backoff, this);

    m_overlap = new QComboBox(this);
    m_overlap->addItem(tr("Allow: every fire makes its task"));
    m_overlap->addItem(tr("Skip a fire while the previous fire's task is pending or active"));
    form->addRow(tr("Overlap"), m_overlap);

    m_jitter = new QLineEdit(this);
    m_jitter->setPlaceholderText(tr("none (or e.g. 30s)"));
    m_jitter->setToolTip(tr("Each fire's task is due up to this much after the fire, the same "
                            "on every worker, so schedules on the same time do not all fall due "
                            "at once"));
    m_jitterError = FieldError::addRow(form, tr("Jitter"), m_jitter, this);

    m_previewNote = new QLabel(this);
    m_previewNote->setTextFormat(Qt::PlainText);
    m_previewNote->setWordWrap(true);
    m_preview = new QListWidget(this);
    m_preview->setSelectionMode(QAbstractItemView::NoSelection);
    m_preview->setMinimumHeight(m_preview->fontMetrics().height() * 6);
    auto* previewBox = new QWidget(this);
    auto* previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setContentsMargins(0, 0, 0, 0);
    previewLayout->addWidget(m_previewNote);
    previewLayout->addWidget(m_preview);
    form->addRow(tr("Next fires"), previewBox);
    m_ruleError = new FieldError(this);
    form->addRow(m_ruleError);

    m_buttons = DialogButtons::okCancel(this, existing ? tr("Save") : tr("Add"));
    form->addRow(m_buttons);

    if (existing) {
        const delayq::ScheduleRule& r = existing->rule;
        m_version = existing->version;
        m_name->setText(QString::fromStdString(r.name));
        m_name->setReadOnly(true);
        m_name->setToolTip(tr("A schedule keeps its name; delete it and add another to rename"));
        m_kind->setCurrentIndex(r.cron.empty() ? EveryKind : CronKind);
        m_cron->setText(QString::fromStdString(r.cron));
        if (r.everyMs > 0)
            m_every->setText(durationText(r.everyMs));
        if (!r.cron.empty() && !r.zone.empty())
            m_zone->setCurrentText(QString::fromStdString(r.zone));
        m_payload->setPlainText(MemberText::fromBytes(r.payload));
        m_catchUp->setText(durationText(r.catchUpMs));
        m_maxAttempts->setValue(r.maxAttempts);
        m_backoff->setText(QString::fromStdString(r.backoff));
        m_overlap->setCurrentIndex(r.overlap == delayq::ScheduleRule::Overlap::Skip ? 1 : 0);
        if (r.jitterMs > 0)
            m_jitter->setText(durationText(r.jitterMs));
    }

    for (QLineEdit* field : {m_name, m_cron, m_every, m_catchUp, m_backoff, m_jitter})
        connect(field, &QLineEdit::textChanged, this, &ScheduleDialog::update);
    connect(m_zone, &QComboBox::currentTextChanged, this, &ScheduleDialog::update);
    connect(m_payload, &QPlainTextEdit::textChanged, this, &ScheduleDialog::update);
    connect(m_maxAttempts, &QSpinBox::valueChanged, this, &ScheduleDialog::update);
    connect(m_overlap, &QComboBox::currentIndexChanged, this, &ScheduleDialog::update);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ScheduleDialog::updateKind);
    updateKind();
    (existing ? static_cast<QWidget*>(m_cron) : m_name)->setFocus();
}

QPushButton* ScheduleDialog::okButton() const
{
    return m_buttons->button(QDialogButtonBox::Ok);
}

void ScheduleDialog::setNow(qint64 nowMs)
{
    m_now = nowMs;
    update();
}

void ScheduleDialog::updateKind()
{
    const bool cron = m_kind->currentIndex() == CronKind;
    m_ruleFields->setCurrentIndex(cron ? CronKind : EveryKind);
    // An interval has no wall clock.
    m_zone->setEnabled(cron);
    update();
}

delayq::ScheduleRule ScheduleDialog::rule() const
{
    return m_rule;
}

void ScheduleDialog::update()
{
    const bool cron = m_kind->currentIndex() == CronKind;
    delayq::ScheduleRule r;
    if (m_existing)
        r = m_existing->rule; // the pause state, and an interval's grid while it stays
    r.name = m_name->text().trimmed().toStdString();
    bool ok = m_nameError->check([&] { delayq::ScheduleRule::validateName(r.name); });
    bool ruleOk = true;
    if (cron) {
        r.cron = m_cron->text().simplified().toStdString();
        r.zone = m_zone->currentText().trimmed().toStdString();
        r.everyMs = 0;
        r.anchorMs = 0;
        ruleOk = m_cronError->check([&] { delayq::Cron::parse(r.cron); });
        ruleOk = m_zoneError->check([&] { delayq::Cron::validateZone(r.zone); }) && ruleOk;
        m_everyError->setError({});
    } else {
        m_cronError->setError({});
        m_zoneError->setError({});
        const long long before = r.everyMs;
        r.cron.clear();
        r.zone.clear();
        ruleOk = m_everyError->check([&] {
            r.everyMs = delayq::parseDuration(m_every->text().trimmed().toStdString());
            if (r.everyMs < 1000)
                throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                    tr("every must be at least 1s").toStdString());
        });
        // A new interval starts a new grid from now (the server sets the first fire).
        if (!m_existing || r.everyMs != before || m_existing->rule.everyMs == 0)
            r.anchorMs = 0;
    }
    ok = ruleOk && ok;
    ok = m_catchUpError->check([&] {
        r.catchUpMs = delayq::parseDuration(m_catchUp->text().trimmed().toStdString());
    }) && ok;
    ok = m_backoffError->check([&] {
        const std::string backoff = m_backoff->text().trimmed().toStdString();
        r.backoff = backoff.empty() ? std::string() : delayq::Queue::normalizeBackoff(backoff);
    }) && ok;
    r.payload = MemberText::toBytes(m_payload->toPlainText());
    r.maxAttempts = m_maxAttempts->value();
    r.overlap = m_overlap->currentIndex() == 1 ? delayq::ScheduleRule::Overlap::Skip
                                               : delayq::ScheduleRule::Overlap::Allow;
    // Under its own field: not negative, within a day and the rule's period.
    ok = m_jitterError->check([&] {
        const std::string jitter = m_jitter->text().trimmed().toStdString();
        r.jitterMs = jitter.empty() ? 0 : delayq::parseDuration(jitter);
        if (ruleOk)
            r.validateJitter();
    }) && ok;
    // What no single field says (ranges the rule as a whole checks).
    if (ok)
        ok = m_ruleError->check([&] { r.validate(); });
    else
        m_ruleError->setError({});

    m_preview->clear();
    if (ruleOk) {
        const qint64 now = m_now > 0 ? m_now : QDateTime::currentMSecsSinceEpoch();
        delayq::ScheduleRule grid = r;
        if (!cron && grid.anchorMs == 0)
            grid.anchorMs = now + grid.everyMs; // as the server sets it
        try {
            const std::optional<delayq::Cron> parsed =
                cron ? std::optional<delayq::Cron>(delayq::Cron::parse(grid.cron)) : std::nullopt;
            qint64 at = now;
            for (int i = 0; i < kPreviewFires; ++i) {
                const std::optional<long long> next =
                    parsed ? parsed->next(at, grid.zone) : grid.nextFire(at);
                if (!next)
                    break;
                at = *next;
                m_preview->addItem(tr("%1  (%2)").arg(timeText(at), DueText::relative(at, now)));
            }
        } catch (const delayq::Error& e) {
            m_ruleError->setError(QString::fromUtf8(e.what()));
            ok = false;
        }
    }
    if (!ruleOk)
        m_previewNote->setText(tr("No preview: the rule above is refused."));
    else if (m_preview->count() == 0)
        m_previewNote->setText(tr("This rule never fires."));
    else if (r.paused)
        m_previewNote->setText(tr("Paused: these fire only after a resume (the next fire after "
                                  "it)."));
    else
        m_previewNote->setText(
            tr("Computed here from the rule; times in %1.").arg(DueText::zoneName(m_utc)));
    m_rule = r;
    okButton()->setEnabled(ok);
}

QString ScheduleDialog::durationText(qint64 ms)
{
    // "1h 30m" as the field reads it back: "1h30m".
    return QString::fromStdString(delayq::formatDuration(ms)).remove(QLatin1Char(' '));
}

QString ScheduleDialog::timeText(qint64 ms) const
{
    const QDateTime time =
        QDateTime::fromMSecsSinceEpoch(ms, m_utc ? QTimeZone::utc() : QTimeZone::systemTimeZone());
    // The weekday in the app's language: cron rules often name weekdays.
    QString out = QLocale().toString(time, QStringLiteral("yyyy-MM-dd HH:mm:ss ddd"));
    if (m_utc)
        out += QStringLiteral(" UTC");
    return out;
}

} // namespace delayq::ui
