#include "window/uilanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

namespace delayq::ui {

namespace {

const QString kSetting = QStringLiteral("view/language");

bool known(const QString& code)
{
    return code.isEmpty() || code == QLatin1String("en") || code == QLatin1String("zh_CN");
}

} // namespace

QString UiLanguage::chosen()
{
    const QString code = QSettings().value(kSetting).toString();
    return known(code) ? code : QString(); // a hand-edited setting falls back to the system
}

bool UiLanguage::choose(const QString& code)
{
    if (!known(code))
        return false;
    QSettings().setValue(kSetting, code);
    return true;
}

QLocale UiLanguage::effective()
{
    const QString code = chosen();
    if (code == QLatin1String("en"))
        return QLocale(QLocale::English, QLocale::UnitedStates);
    if (!code.isEmpty())
        return QLocale(code);
    return QLocale::system();
}

bool UiLanguage::install(QCoreApplication* app, const QLocale& locale)
{
    // Numbers follow the chosen language even without a translation: English chosen on a
    // Chinese system reads as English throughout.
    QLocale::setDefault(locale);
    auto* own = new QTranslator(app);
    // The .qm files are embedded (ui/CMakeLists.txt), so no install path can be wrong.
    if (!own->load(locale, QStringLiteral("delayq-admin"), QStringLiteral("_"),
                   QStringLiteral(":/i18n"))) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    // Qt's own texts (the OK and Cancel of dialog buttons, edit menus) from Debian's
    // qt6-translations-l10n; without it they stay English, the rest is still translated.
    auto* qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

} // namespace delayq::ui
