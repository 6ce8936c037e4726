#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace delayq::ui {

// Above the tables while a plain sorted set is open: which key it is, the unit its scores
// are read in (detected, or chosen here and remembered for the key), and what delivery
// such a key can promise.
class PlainKeyBar : public QWidget
{
    Q_OBJECT

public:
    explicit PlainKeyBar(QWidget* parent = nullptr);

    // Shows the key and its unit ("ms" | "s") without announcing a change.
    void setKey(const QString& key, const QString& unit);
    QComboBox* unitBox() const { return m_unit; }

    // The unit last chosen for a key in this app, "" when none was.
    static QString rememberedUnit(const QString& key);
    static void rememberUnit(const QString& key, const QString& unit);
    // The unit to open `key` with. One the user chose (`chosen`) is kept for the key; one
    // detected from the scores, or none, gives way to what the user chose for it before.
    static QString unitFor(const QString& key, const QString& unit, bool chosen);

signals:
    // The user chose another unit for the key: the views must read the scores anew (and
    // the window remembers it, see rememberUnit).
    void unitChosen(const QString& key, const QString& unit);

private:
    QLabel* m_key;
    QComboBox* m_unit;
    QString m_keyName;
};

} // namespace delayq::ui
