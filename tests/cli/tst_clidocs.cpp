// delayq's man page and shell completions are made from its --help texts: every command and
// option --help shows is in them, the bash completion offers what the line needs (commands,
// options, option values, queue names from the server), and --version and --generate behave.
#include "clisuite.h"

#include <delayq/version.h>

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestCliDocs : public CliSuite
{
    Q_OBJECT

private slots:
    void version()
    {
        const CliRun r = delayq({"--version"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("delayq " DELAYQ_VERSION "\n"));
    }

    void generateRefusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no value") << QStringList{"--generate"} << "needs a value";
        QTest::newRow("unknown") << QStringList{"--generate", "fish"} << "man, bash or zsh";
    }
    void generateRefusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliRun r = delayq(args);
        expectUsageError(r, message);
        QVERIFY(r.out.isEmpty());
    }

    // Every command of `delayq --help` has a section, and every option any --help names is
    // in the man page and among the bash and zsh completions' options.
    void generatedFromHelp()
    {
        const QStringList commands = helpCommands();
        QVERIFY(commands.size() >= 16);
        QString man = QString::fromUtf8(delayq({"--generate", "man"}).out);
        man.replace(QStringLiteral("\\-"), QStringLiteral("-"));
        const QString bash = QString::fromUtf8(delayq({"--generate", "bash"}).out);
        const QString zsh = QString::fromUtf8(delayq({"--generate", "zsh"}).out);
        QVERIFY(man.startsWith(QStringLiteral(".TH DELAYQ 1 \"\" \"delayq " DELAYQ_VERSION)));
        const QRegularExpression option(QStringLiteral("(?<![\\w-])--[a-z][a-z-]*"));
        for (const QString& command : commands) {
            QVERIFY2(man.contains(QStringLiteral(".SS ") + command + QLatin1Char('\n')),
                     qPrintable(command));
            QVERIFY2(bash.contains(QStringLiteral("\n    ") + command + QStringLiteral(") echo")),
                     qPrintable(command));
            QVERIFY2(zsh.contains(QStringLiteral("\n        '") + command + QLatin1Char(':')),
                     qPrintable(command));
            const QString help = QString::fromUtf8(delayq({command, "--help"}).out);
            for (const auto& m : option.globalMatch(help)) {
                const QString name = m.captured();
                QVERIFY2(man.contains(name), qPrintable(command + QLatin1Char(' ') + name));
                QVERIFY2(bash.contains(name + QLatin1Char(' ')) ||
                             bash.contains(name + QLatin1Char('\n')),
                         qPrintable(command + QLatin1Char(' ') + name));
                QVERIFY2(zsh.contains(QLatin1Char('\'') + name),
                         qPrintable(command + QLatin1Char(' ') + name));
            }
        }
    }

    void zshScriptParses()
    {
        const QString zsh = QStandardPaths::findExecutable(QStringLiteral("zsh"));
        QVERIFY2(!zsh.isEmpty(), "zsh not found (scripts/setup installs it)");
        const QString file = m_dir.filePath(QStringLiteral("_delayq"));
        writeFile(file, delayq({"--generate", "zsh"}).out);
        QProcess p;
        p.start(zsh, {QStringLiteral("-n"), file});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

    void namesOnly()
    {
        CliRun r = delayq({"queues", "--names-only"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray());
        pushQueues();
        r = delayq({"queues", "--names-only"});
        QCOMPARE(r.exitCode, 0);
        QStringList names = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        names.sort();
        QCOMPARE(names, QStringList({"mail", "orders:eu"}));
    }

    // line: what is typed before the cursor ("dq" stands for the built binary); words: how
    // bash split it, when it split at ':' or '=' (else at spaces).
    void bashCompletes_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("words");
        QTest::addColumn<QStringList>("offered");
        QTest::addColumn<QStringList>("notOffered");
        QTest::newRow("commands") << "dq "
                                  << "" << QStringList{"push", "ls", "queues", "migrate"}
                                  << QStringList{"--url", "mail"};
        QTest::newRow("a command") << "dq pu"
                                   << "" << QStringList{"push"} << QStringList{"ls", "pause"};
        QTest::newRow("push options") << "dq push mail --"
                                      << "" << QStringList{"--in", "--replace", "--url", "--json"}
                                      << QStringList{"--state", "--names-only"};
        QTest::newRow("option values")
            << "dq ls --state "
            << "" << QStringList{"pending", "active", "dead"} << QStringList{"mail"};
        QTest::newRow("--opt=value") << "dq ls --state=a"
                                     << "" << QStringList{"--state=active"} << QStringList{};
        QTest::newRow("split at =")
            << "dq ls --state=a"
            << "dq ls --state = a" << QStringList{"active"} << QStringList{};
        QTest::newRow("queues") << "dq ls "
                                << "" << QStringList{"mail", "orders:eu"} << QStringList{"push"};
        QTest::newRow("after global options")
            << "dq --json ls --limit 5 "
            << "" << QStringList{"mail", "orders:eu"} << QStringList{};
        QTest::newRow("a queue") << "dq stats ord"
                                 << "" << QStringList{"orders:eu"} << QStringList{"mail"};
        QTest::newRow("split at :") << "dq stats orders:"
                                    << "dq stats orders :" << QStringList{":eu"} << QStringList{};
        QTest::newRow("not the payload") << "dq push mail "
                                         << "" << QStringList{} << QStringList{"mail"};
        QTest::newRow("not an option's value") << "dq push mail x --in "
                                               << "" << QStringList{} << QStringList{"mail"};
        QTest::newRow("migrate: key first") << "dq migrate "
                                            << "" << QStringList{} << QStringList{"mail"};
        QTest::newRow("migrate: then the queue") << "dq migrate key "
                                                 << "" << QStringList{"mail"} << QStringList{};
        QTest::newRow("another prefix") << "dq --prefix other ls "
                                        << "" << QStringList{} << QStringList{"mail"};
        QTest::newRow("no server") << "dq --url redis://127.0.0.1:1 ls "
                                   << "" << QStringList{} << QStringList{"mail"};
        QTest::newRow("queues' option") << "dq queues --n"
                                        << "" << QStringList{"--names-only"} << QStringList{};
    }
    void bashCompletes()
    {
        QFETCH(QString, line);
        QFETCH(QString, words);
        QFETCH(QStringList, offered);
        QFETCH(QStringList, notOffered);
        pushQueues();
        const QString script = m_dir.filePath(QStringLiteral("delayq.bash"));
        writeFile(script, delayq({"--generate", "bash"}).out);
        const QString cli = QStringLiteral(DELAYQ_CLI);
        line.replace(QStringLiteral("dq "), cli + QLatin1Char(' '));
        words.replace(QStringLiteral("dq "), cli + QLatin1Char(' '));
        // What bash sets before it calls a completion function.
        const QString run = QStringLiteral(
            "source \"$1\"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}\n"
            "read -ra COMP_WORDS <<<\"${3:-$2}\"; [[ $2 == *' ' ]] && COMP_WORDS+=('')\n"
            "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _delayq; printf '%s\\n' \"${COMPREPLY[@]}\"");
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REDIS_URL"), QString::fromStdString(m_server.tcpUrl()));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("bash"),
                {QStringLiteral("-c"), run, QStringLiteral("bash"), script, line, words});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QStringList got = QString::fromUtf8(p.readAllStandardOutput())
                                    .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString& word : offered)
            QVERIFY2(got.contains(word),
                     qPrintable(word + QStringLiteral(" not in ") + got.join(' ')));
        for (const QString& word : notOffered)
            QVERIFY2(!got.contains(word),
                     qPrintable(word + QStringLiteral(" in ") + got.join(' ')));
        if (offered.isEmpty() && notOffered.contains(QStringLiteral("mail")))
            QVERIFY2(got.isEmpty(), qPrintable(got.join(' ')));
    }

private:
    void pushQueues()
    {
        QCOMPARE(delayq({"push", "mail", "x"}).exitCode, 0);
        QCOMPARE(delayq({"push", "orders:eu", "x"}).exitCode, 0);
    }

    static void writeFile(const QString& path, const QByteArray& data)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

    // The command names listed by `delayq --help`.
    QStringList helpCommands()
    {
        const QString help = QString::fromUtf8(delayq({"--help"}).out);
        const QString list = help.section(QStringLiteral("Commands:\n"), 1).section("\n\n", 0, 0);
        QStringList names;
        for (const QString& row : list.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            names << row.trimmed().section(QLatin1Char(' '), 0, 0);
        return names;
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCliDocs)
#include "tst_clidocs.moc"
