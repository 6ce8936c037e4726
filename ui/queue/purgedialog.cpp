#include "queue/purgedialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace delayq::ui {

PurgeDialog::PurgeDialog(const QString& queue, qint64 pending, qint64 active, qint64 dead,
                         QWidget* parent)
    : QDialog(parent), m_queue(queue)
{
    setWindowTitle(tr("Purge queue"));
    const QLocale locale;
    // The name comes from Redis: plain text only, never rich text.
    m_summary = new QLabel(
        tr("Purge queue %1?\n\n"
           "This deletes every task of the queue: %2 pending, %3 active (their workers lose "
           "them) and %4 dead, %5 in all, and any pushed while the purge runs. "
           "The queue's config and stats are kept. This cannot be undone.")
            .arg(queue, locale.toString(pending), locale.toString(active), locale.toString(dead),
                 locale.toString(pending + active + dead)),
        this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    auto* prompt = new QLabel(tr("Type the queue's name to confirm:"), this);
    prompt->setTextFormat(Qt::PlainText);
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(queue);
    prompt->setBuddy(m_name);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_export = buttons->addButton(tr("Export first…"), QDialogButtonBox::ActionRole);
    m_export->setAutoDefault(false);
    connect(m_export, &QPushButton::clicked, this, [this] { emit exportRequested(m_queue); });
    m_purge = buttons->addButton(tr("Purge"), QDialogButtonBox::DestructiveRole);
    m_purge->setEnabled(false);
    // No default button: Enter in the name field purges only when the name matches, and
    // never cancels by surprise.
    m_purge->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Cancel)->setAutoDefault(false);
    connect(m_name, &QLineEdit::textChanged, this, [this] { m_purge->setEnabled(nameMatches()); });
    connect(m_name, &QLineEdit::returnPressed, this, &PurgeDialog::accept);
    connect(m_purge, &QPushButton::clicked, this, &PurgeDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PurgeDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(prompt);
    layout->addWidget(m_name);
    layout->addWidget(buttons);
    // The wrapped summary's height at that width: Chinese wraps into more lines than the
    // size hint's guess, and the first and last ones were cut off.
    resize(460, qMax(sizeHint().height(), heightForWidth(460)));
}

bool PurgeDialog::nameMatches() const
{
    return m_name->text() == m_queue;
}

void PurgeDialog::accept()
{
    // Enter in the line edit or a programmatic accept must not get past the typed name.
    if (!nameMatches())
        return;
    QDialog::accept();
}

} // namespace delayq::ui
