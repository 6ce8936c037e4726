#pragma once

#include <QMessageBox>
#include <QString>

class QWidget;

namespace delayq::ui {

// What a destructive action asks before it runs. The buttons say the action and its count
// ("Cancel 3 tasks" / "Keep"), so a reflexive Enter or a misread Yes cannot surprise anyone;
// the safe button is the default.
struct Confirmation
{
    QString title;
    QString text; // plain text: it quotes ids and payloads
    QString acceptText;
    QString rejectText;
    QMessageBox::Icon icon = QMessageBox::Question;

    // Asks with a modal message box; true when the action button was chosen.
    bool ask(QWidget* parent) const;

    // "1 task", "3 dead tasks": counts as the texts and the buttons say them.
    static QString tasks(qint64 n, const QString& adjective = {});
};

} // namespace delayq::ui
