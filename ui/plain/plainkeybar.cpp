#include "plain/plainkeybar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>

namespace delayq::ui {

namespace {
// One map for all keys: a key name may hold '/' or '\', which QSettings reads as groups.
const QString kUnitsSetting = QStringLiteral("plain/units");
constexpr int kMaxRemembered = 500;
} // namespace

PlainKeyBar::PlainKeyBar(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    m_key = new QLabel(this);
    m_key->setTextFormat(Qt::PlainText);
    m_key->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_key->font();
    bold.setBold(true);
    m_key->setFont(bold);
    auto* unitLabel = new QLabel(tr("scores are"), this);
    m_unit = new QComboBox(this);
    m_unit->addItem(tr("milliseconds since 1970"), QStringLiteral("ms"));
    m_unit->addItem(tr("seconds since 1970"), QStringLiteral("s"));
    m_unit->setToolTip(tr("How the key's scores are read as due times; remembered for this key"));
    auto* guarantee =
        new QLabel(tr("At most once: a consumer that dies right after taking a message loses it. "
                      "For at least once, move it to a delayq queue: delayq migrate."),
                   this);
    guarantee->setTextFormat(Qt::PlainText);
    guarantee->setWordWrap(true);
    guarantee->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(new QLabel(tr("Plain sorted set"), this));
    layout->addWidget(m_key);
    layout->addSpacing(12);
    layout->addWidget(unitLabel);
    layout->addWidget(m_unit);
    layout->addSpacing(12);
    layout->addWidget(guarantee, 1);

    connect(m_unit, &QComboBox::currentIndexChanged, this,
            [this] { emit unitChosen(m_keyName, m_unit->currentData().toString()); });
}

void PlainKeyBar::setKey(const QString& key, const QString& unit)
{
    m_keyName = key;
    m_key->setText(key);
    const QSignalBlocker quiet(m_unit);
    m_unit->setCurrentIndex(qMax(0, m_unit->findData(unit)));
}

QString PlainKeyBar::rememberedUnit(const QString& key)
{
    return QSettings().value(kUnitsSetting).toMap().value(key).toString();
}

QString PlainKeyBar::unitFor(const QString& key, const QString& unit, bool chosen)
{
    if (chosen && !unit.isEmpty())
        rememberUnit(key, unit);
    else if (const QString remembered = rememberedUnit(key); !remembered.isEmpty())
        return remembered;
    return unit;
}

void PlainKeyBar::rememberUnit(const QString& key, const QString& unit)
{
    if (key.isEmpty())
        return;
    QSettings settings;
    QVariantMap units = settings.value(kUnitsSetting).toMap();
    units.insert(key, unit);
    // Bounded: someone browsing many servers must not grow the settings file without end.
    for (auto it = units.begin(); units.size() > kMaxRemembered && it != units.end();)
        it = it.key() == key ? std::next(it) : units.erase(it);
    settings.setValue(kUnitsSetting, units);
}

} // namespace delayq::ui
