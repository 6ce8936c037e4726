#pragma once

#include <QMenu>

namespace delayq::ui {

// View → Language: System, English or 简体中文, each named in its own language so an
// operator who cannot read the current one still finds theirs. Stored for the next start.
class LanguageMenu : public QMenu
{
    Q_OBJECT

public:
    explicit LanguageMenu(QWidget* parent = nullptr);

signals:
    // code: "" (the system's), "en" or "zh_CN".
    void languageChosen(const QString& code);
};

} // namespace delayq::ui
