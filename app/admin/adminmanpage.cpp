#include "adminmanpage.h"

#include "adminoptions.h"

#include <delayq/version.h>

namespace {

// Text as roff shows it literally: backslashes, minus signs, a leading dot or quote, "…".
// (The CLI's manpage.cpp has the same rules for its std::string texts.)
QString roffEscape(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    text.replace(QChar(0x2026), QStringLiteral("\\&..."));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

QString optionItem(const QCommandLineOption& option)
{
    QStringList names;
    for (const QString& name : option.names())
        names << QStringLiteral("\\fB") +
                     roffEscape((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) +
                                name) +
                     QStringLiteral("\\fR") +
                     (option.valueName().isEmpty()
                          ? QString()
                          : QStringLiteral(" \\fI") + option.valueName() + QStringLiteral("\\fR"));
    return QStringLiteral(".TP\n") + names.join(QStringLiteral(", ")) + QLatin1Char('\n') +
           roffEscape(option.description()) + QLatin1Char('\n');
}

} // namespace

QString adminManPage()
{
    QString page = QStringLiteral(".TH DELAYQ\\-ADMIN 1 \"\" \"delayq " DELAYQ_VERSION
                                  "\" \"User Commands\"\n");
    page += QStringLiteral(".SH NAME\ndelayq\\-admin \\- operate delayq queues on Redis\n");
    page += QStringLiteral(".SH SYNOPSIS\n.B delayq\\-admin\n[options]\n");
    page += QStringLiteral(".SH DESCRIPTION\n") + roffEscape(AdminOptions::description()) +
            QLatin1Char('\n');
    page += QStringLiteral(".SH OPTIONS\n");
    for (const QCommandLineOption& option : AdminOptions::options())
        if (!(option.flags() & QCommandLineOption::HiddenFromHelp))
            page += optionItem(option);
    page += optionItem(QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                                          QStringLiteral("Print the options and exit")));
    page += optionItem(QCommandLineOption(QStringLiteral("help-all"),
                                          QStringLiteral("Print these options and Qt's own "
                                                         "(-platform, -style...) and exit")));
    page += optionItem(QCommandLineOption({QStringLiteral("v"), QStringLiteral("version")},
                                          QStringLiteral("Print the version and exit")));
    page += QStringLiteral(".SH ENVIRONMENT\n.TP\n.B REDIS_URL\nthe server when \\fB\\-\\-url\\fR "
                           "is not given.\n");
    page += QStringLiteral(".SH SEE ALSO\n.BR delayq (1)\n");
    return page;
}
