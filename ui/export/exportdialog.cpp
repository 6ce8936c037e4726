#include "export/exportdialog.h"

#include "widgets/dialogbuttons.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

QString setName(TaskSet set)
{
    switch (set) {
    case TaskSet::Active:
        return ExportDialog::tr("active");
    case TaskSet::Dead:
        return ExportDialog::tr("dead");
    case TaskSet::Pending:
        break;
    }
    return ExportDialog::tr("pending");
}

// "orders-20261201-093000.jsonl" in the home folder; a name's odd characters become '_'.
QString defaultPath(const QString& queue)
{
    QString name = queue;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return QDir::home().filePath(
        name + QDateTime::currentDateTime().toString(QStringLiteral("-yyyyMMdd-HHmmss")) +
        QStringLiteral(".jsonl"));
}

} // namespace

ExportDialog::ExportDialog(const QString& queue, bool plain, TaskSet currentSet,
                           const QStringList& selectedIds, QWidget* parent)
    : QDialog(parent), m_queue(queue), m_plain(plain), m_currentSet(currentSet),
      m_selectedIds(selectedIds)
{
    setWindowTitle(tr("Export tasks"));
    // The queue's name comes from Redis: plain text only.
    auto* intro = new QLabel(
        plain ? tr("Export every member of %1 with its score, as JSON lines that "
                   "\"delayq import --plain\" reads back.")
                    .arg(queue)
              : tr("Export tasks of %1 with every field, as JSON lines that \"delayq import\" "
                   "reads back.")
                    .arg(queue),
        this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    m_whole = new QRadioButton(
        plain ? tr("The whole key") : tr("The whole queue (pending, active and dead)"), this);
    m_set = new QRadioButton(tr("The %1 tasks (the current tab)").arg(setName(currentSet)), this);
    m_selection = new QRadioButton(
        tr("The selected tasks: %1").arg(QLocale().toString(selectedIds.size())), this);
    m_whole->setChecked(true);
    m_set->setVisible(!plain);
    m_selection->setVisible(!plain);
    m_selection->setEnabled(!selectedIds.isEmpty());
    m_match = new QLineEdit(this);
    m_match->setPlaceholderText(tr("any id or payload"));
    m_match->setEnabled(!plain);
    m_path = new QLineEdit(defaultPath(queue), this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path);
    pathRow->addWidget(browse);

    auto* form = new QFormLayout;
    if (!plain)
        form->addRow(tr("Only tasks containing:"), m_match);
    form->addRow(tr("File:"), pathRow);
    auto* buttons =
        DialogButtons::wired(new QDialogButtonBox(QDialogButtonBox::Cancel, this), this);
    m_export = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_whole);
    layout->addWidget(m_set);
    layout->addWidget(m_selection);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateEnabled);
    connect(m_selection, &QRadioButton::toggled, this, &ExportDialog::updateEnabled);
    updateEnabled();
    resize(520, sizeHint().height());
}

ExportRequest ExportDialog::request() const
{
    ExportRequest r;
    r.queue = m_queue;
    r.plain = m_plain;
    r.path = m_path->text().trimmed();
    if (m_plain)
        return r;
    if (m_selection->isChecked()) {
        r.ids = m_selectedIds;
        return r;
    }
    r.match = m_match->text();
    if (m_set->isChecked())
        r.sets = {m_currentSet};
    else
        r.sets = {TaskSet::Pending, TaskSet::Active, TaskSet::Dead};
    return r;
}

void ExportDialog::browse()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export to"), m_path->text(),
                                                      tr("JSON lines (*.jsonl);;All files (*)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

void ExportDialog::updateEnabled()
{
    // The selection is its own filter: the text applies to what the sets hold.
    m_match->setEnabled(!m_plain && !m_selection->isChecked());
    m_export->setEnabled(!m_path->text().trimmed().isEmpty());
}

} // namespace delayq::ui
