#pragma once

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace delayq::ui {

// The language of the app's texts: the system's (QLocale::system()) unless the operator chose
// one in View → Language. The choice is kept in QSettings and takes effect at the next start:
// widgets built in one language would otherwise show a mix of both.
namespace UiLanguage {

// "" follows the system; otherwise "en" or "zh_CN".
QString chosen();
// Refuses (false, nothing stored) a code the app has no translation for.
bool choose(const QString& code);
// The locale the texts, numbers and dates follow: the chosen one, else the system's.
QLocale effective();
// Makes locale the default for numbers and loads the app's and Qt's own translations for
// it into app. False when the app has no translation for it: texts stay English.
bool install(QCoreApplication* app, const QLocale& locale);

} // namespace UiLanguage

} // namespace delayq::ui
