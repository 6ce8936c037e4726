#include "window/languagemenu.h"

#include "window/uilanguage.h"

#include <QActionGroup>

namespace delayq::ui {

LanguageMenu::LanguageMenu(QWidget* parent) : QMenu(tr("&Language"), parent)
{
    setObjectName(QStringLiteral("languagemenu"));
    auto* note = addAction(tr("Applies at the next start"));
    note->setEnabled(false);
    addSeparator();
    auto* group = new QActionGroup(this);
    const QString current = UiLanguage::chosen();
    const QList<QPair<QString, QString>> choices{
        {QString(), tr("System")},
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto& [code, name] : choices) {
        QAction* action = addAction(name);
        action->setCheckable(true);
        action->setChecked(code == current);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            UiLanguage::choose(code);
            emit languageChosen(code);
        });
    }
}

} // namespace delayq::ui
