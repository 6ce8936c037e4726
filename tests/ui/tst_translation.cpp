#include "client/adminclient.h"
#include "connection/connectiondialog.h"
#include "overview/serverview.h"
#include "overview/workersview.h"
#include "queue/purgedialog.h"
#include "queue/queueactions.h"
#include "tasks/pushdialog.h"
#include "tasks/rescheduledialog.h"
#include "tasks/taskactions.h"
#include "tasks/tasktable.h"
#include "tasks/tasktabs.h"
#include "widgets/duetext.h"
#include "window/mainwindow.h"
#include "window/uilanguage.h"
#include "windowsuite.h"
#include "worker/workerdock.h"
#include <delayq/worker.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

using namespace delayq::ui;
using delayq::TaskSet;

namespace {

// Words that stay as they are in the Chinese texts, and why:
// - Redis, delayq, QtKeychain, RabbitMQ: names of products;
// - webhook: the term Chinese technical writing keeps (the delivery target's kind);
// - English: the language's own name in View → Language, so its readers find it;
// - now: the keyword the time fields accept ("now, +10m");
// - migrate: the name of a delayq CLI command;
// - Del, Esc: the names printed on the keys;
// - KiB: a unit symbol.
// Besides these, acronyms (all capitals: TLS, URL, JSON, UTC, PEM, CA, ID, LPUSH) and technical
// tokens holding a digit or one of :/_.=+*@-[] (URLs, durations such as 1h30m, max_payload,
// Ctrl+N, *.pem) are left alone, and so is every string the suite put in Redis.
const QStringList kKeptWords{
    QStringLiteral("Redis"),   QStringLiteral("delayq"), QStringLiteral("QtKeychain"),
    QStringLiteral("English"), QStringLiteral("now"),    QStringLiteral("migrate"),
    QStringLiteral("Del"),     QStringLiteral("Esc"),    QStringLiteral("KiB"),
    QStringLiteral("RabbitMQ"), QStringLiteral("webhook")};

const QString kQueue = QStringLiteral("orders");

// Every visible text of a widget tree, each labelled with where it was found.
class TextCollector
{
public:
    void addWidgetTree(QWidget* root)
    {
        addWidget(root);
        for (QWidget* w : root->findChildren<QWidget*>())
            addWidget(w);
    }

    void addMenu(QMenu* menu, const QString& path)
    {
        add(path, menu->title());
        for (QAction* action : menu->actions()) {
            if (action->menu())
                addMenu(action->menu(), path + QStringLiteral(" → ") + action->menu()->title());
            else
                addAction(action, path);
        }
    }

    void addAction(QAction* action, const QString& where)
    {
        add(where + QStringLiteral(" action"), action->text());
        add(where + QStringLiteral(" tooltip"), action->toolTip());
    }

    void add(const QString& where, const QString& text)
    {
        if (!text.trimmed().isEmpty())
            m_texts.append({where, text});
    }

    QList<QPair<QString, QString>> texts() const { return m_texts; }

private:
    void addWidget(QWidget* w)
    {
        const QString name = QString::fromLatin1(w->metaObject()->className());
        if (w->isWindow() || qobject_cast<QDockWidget*>(w) || qobject_cast<QToolBar*>(w))
            add(name + QStringLiteral(" title"), w->windowTitle());
        add(name + QStringLiteral(" tooltip"), w->toolTip());
        if (auto* label = qobject_cast<QLabel*>(w))
            add(name, label->text());
        if (auto* button = qobject_cast<QAbstractButton*>(w))
            add(name, button->text());
        if (auto* box = qobject_cast<QGroupBox*>(w))
            add(name, box->title());
        if (auto* edit = qobject_cast<QLineEdit*>(w))
            add(name + QStringLiteral(" placeholder"), edit->placeholderText());
        if (auto* edit = qobject_cast<QPlainTextEdit*>(w))
            add(name + QStringLiteral(" placeholder"), edit->placeholderText());
        if (auto* spin = qobject_cast<QSpinBox*>(w))
            add(name + QStringLiteral(" suffix"), spin->suffix());
        if (auto* combo = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < combo->count(); ++i)
                add(name + QStringLiteral(" item"), combo->itemText(i));
        if (auto* tabs = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < tabs->count(); ++i)
                add(name + QStringLiteral(" tab"), tabs->tabText(i));
        if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model())
            for (int c = 0; c < view->model()->columnCount(); ++c)
                add(name + QStringLiteral(" header"),
                    view->model()->headerData(c, Qt::Horizontal).toString());
        if (auto* toolBar = qobject_cast<QToolBar*>(w))
            for (QAction* action : toolBar->actions())
                addAction(action, QStringLiteral("toolbar"));
    }

    QList<QPair<QString, QString>> m_texts;
};

// The English words left in text once the data and the kept words are set aside.
QStringList englishWords(QString text, const QStringList& data)
{
    text.remove(QLatin1Char('&'));
    for (const QString& value : data)
        text.remove(value);
    static const QRegularExpression token(QStringLiteral("[A-Za-z][A-Za-z0-9_.:/+=*@\\[\\]-]*"));
    static const QRegularExpression lettersOnly(QStringLiteral("^[A-Za-z]+$"));
    QStringList words;
    for (auto it = token.globalMatch(text); it.hasNext();) {
        QString word = it.next().captured();
        while (word.endsWith(QLatin1Char('.')) || word.endsWith(QLatin1Char(':')))
            word.chop(1); // the end of an English sentence, not a technical token
        if (!lettersOnly.match(word).hasMatch())
            continue;
        if (word.size() < 2 || word == word.toUpper() || kKeptWords.contains(word))
            continue;
        words << word;
    }
    return words;
}

} // namespace

// The app in Simplified Chinese: with the zh_CN translation loaded, no text of the window,
// its menus and its dialogs is left in English, and the .ts holds every string of the sources.
class TestTranslation : public WindowSuite
{
    Q_OBJECT

public:
    TestTranslation() : WindowSuite(QStringLiteral("tst_translation"))
    {
        m_installed = UiLanguage::install(qApp, QLocale(QLocale::Chinese, QLocale::China));
    }

private slots:
    void translationLoads()
    {
        QVERIFY2(m_installed, "no zh_CN translation embedded under :/i18n");
        QCOMPARE(QCoreApplication::translate("delayq::ui::WindowLayout", "Queues"),
                 QStringLiteral("队列"));
        QCOMPARE(QLocale().name(), QStringLiteral("zh_CN"));
    }

    void durationsFollowTheLanguage_data()
    {
        QTest::addColumn<qint64>("dueInMs");
        QTest::addColumn<QString>("expected");
        QTest::newRow("now") << qint64(0) << QStringLiteral("现在");
        QTest::newRow("in 3m 20s") << qint64(200000) << QStringLiteral("3分钟20秒后");
        QTest::newRow("1d 1h") << qint64(90061000) << QStringLiteral("1天1小时后");
        QTest::newRow("overdue") << qint64(-45 * 60000) << QStringLiteral("逾期45分钟");
    }

    void durationsFollowTheLanguage()
    {
        QFETCH(qint64, dueInMs);
        QFETCH(QString, expected);
        const qint64 now = 1'800'000'000'000;
        QCOMPARE(DueText::relative(now + dueInMs, now), expected);
    }

    // A language the app has no translation for is refused and leaves the choice as it was;
    // English chosen wins over the system's language, and "" gives the system's back.
    void unknownLanguageIsRefused()
    {
        QVERIFY(UiLanguage::choose(QStringLiteral("zh_CN")));
        QVERIFY(!UiLanguage::choose(QStringLiteral("fr_FR")));
        QCOMPARE(UiLanguage::chosen(), QStringLiteral("zh_CN"));
        QVERIFY(UiLanguage::choose(QStringLiteral("en")));
        QCOMPARE(UiLanguage::effective().language(), QLocale::English);
        QVERIFY(UiLanguage::choose(QString()));
        QCOMPARE(UiLanguage::effective(), QLocale::system());
    }

    // A delayq queue, and a plain sorted set (whose views name messages, not tasks).
    void mainWindowAndMenus_data()
    {
        QTest::addColumn<bool>("plain");
        QTest::newRow("queue") << false;
        QTest::newRow("plain sorted set") << true;
    }

    void mainWindowAndMenus()
    {
        QFETCH(bool, plain);
        MainWindow* window = m_fixture.window();
        if (plain) {
            const qint64 due = QDateTime::currentMSecsSinceEpoch() + 60000;
            m_server.cli({QStringLiteral("ZADD"), QStringLiteral("plain:q1"), QString::number(due),
                          QStringLiteral("m1"), QString::number(due + 1), QStringLiteral("m2")});
            m_fixture.connectWindow();
            QSignalSpy loaded(window, &MainWindow::queueLoaded);
            window->openPlainKey(QStringLiteral("plain:q1"), QStringLiteral("ms"), true);
            QVERIFY(loaded.wait(10000));
        } else {
            openQueueWithTasks();
        }
        window->workerDock()->show();
        m_fixture.selectRows(m_fixture.pending(), {0});
        QTRY_VERIFY(window->tabs()->findChild<QTabBar*>()->tabText(0).contains(u'('));
        TextCollector texts;
        texts.addWidgetTree(window);
        for (QAction* action : window->menuBar()->actions())
            texts.addMenu(action->menu(), action->menu()->title());
        expectNoEnglish(texts);
    }

    void dialogs_data()
    {
        QTest::addColumn<QString>("dialog");
        for (const char* name :
             {"connection", "push", "push plain", "reschedule", "purge", "server", "workers"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void dialogs()
    {
        QFETCH(QString, dialog);
        openQueueWithTasks();
        MainWindow* window = m_fixture.window();
        std::unique_ptr<QWidget> shown;
        if (dialog == QLatin1String("connection")) {
            auto* d = new ConnectionDialog(window);
            d->startFrom(window->client()->settings());
            shown.reset(d);
        } else if (dialog.startsWith(QLatin1String("push"))) {
            auto* d = new PushDialog(kQueue, window);
            d->setPlain(dialog.endsWith(QLatin1String("plain")));
            shown.reset(d);
        } else if (dialog == QLatin1String("reschedule")) {
            TaskRow row;
            row.id = QStringLiteral("p1");
            row.score = QDateTime::currentMSecsSinceEpoch() + 60000;
            shown = std::make_unique<RescheduleDialog>(QList<TaskRow>{row, row}, window);
        } else if (dialog == QLatin1String("purge")) {
            shown = std::make_unique<PurgeDialog>(kQueue, 3, 1, 2, window);
        } else if (dialog == QLatin1String("workers")) {
            // A live worker and a gone one: every state word and the summary are shown.
            delayq::WorkerOptions o;
            o.connection = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
            o.queue = kQueue.toStdString();
            o.heartbeatInterval = std::chrono::milliseconds(100);
            delayq::Worker worker(
                o, [](const delayq::ClaimedTask&) { return delayq::HandlerResult::ack(); });
            QVERIFY(worker.start());
            WorkersView* view = window->showWorkers();
            QTRY_COMPARE_WITH_TIMEOUT((view->reload(),
                                       QSignalSpy(view, &WorkersView::loaded).wait(3000),
                                       view->table()->rowCount()),
                                      1, 10000);
            TextCollector texts;
            texts.addWidgetTree(view);
            expectNoEnglish(texts);
            worker.stop();
            return;
        } else {
            ServerView* view = window->showServer();
            QTRY_VERIFY(!view->findChild<QLabel*>()->text().isEmpty());
            TextCollector texts;
            texts.addWidgetTree(view);
            expectNoEnglish(texts);
            return;
        }
        shown->show();
        // Chinese wraps into more lines than English: no wrapped text may lose a line.
        for (QLabel* label : shown->findChildren<QLabel*>())
            if (label->isVisible() && label->wordWrap())
                QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                         qPrintable(label->text()));
        TextCollector texts;
        texts.addWidgetTree(shown.get());
        expectNoEnglish(texts);
    }

    // What the operator is asked before a change: title, question and both buttons.
    void confirmations_data()
    {
        QTest::addColumn<bool>("dead");
        QTest::addColumn<QString>("action");
        QTest::newRow("cancel") << false << QStringLiteral("cancel");
        QTest::newRow("requeue") << true << QStringLiteral("requeue");
        QTest::newRow("delete") << true << QStringLiteral("delete");
        QTest::newRow("requeue all dead") << true << QStringLiteral("requeue all");
    }

    void confirmations()
    {
        QFETCH(bool, dead);
        QFETCH(QString, action);
        openQueueWithTasks();
        m_fixture.setAnswer(false);
        MainWindow* window = m_fixture.window();
        TaskActions* actions = window->actions();
        Confirmation asked;
        int askedCount = 0;
        if (action == QLatin1String("requeue all")) {
            // The queue-wide actions ask through their own handler (a QMessageBox in the app).
            window->queueActions()->setConfirmHandler([&](const Confirmation& c) {
                asked = c;
                ++askedCount;
                return false;
            });
            window->queueActions()->requeueAllDead()->trigger();
            QTRY_COMPARE(askedCount, 1);
        } else {
            const TaskSet set = dead ? TaskSet::Dead : TaskSet::Pending;
            window->tabs()->setCurrentSet(set);
            m_fixture.selectRows(m_fixture.table(set), {0, 1});
            (action == QLatin1String("cancel")    ? actions->cancel()
             : action == QLatin1String("requeue") ? actions->requeue()
                                                  : actions->deleteDead())
                ->trigger();
            QTRY_COMPARE(m_fixture.confirmations(), 1);
            asked = m_fixture.lastConfirmation();
        }
        TextCollector texts;
        texts.add(QStringLiteral("title"), asked.title);
        texts.add(QStringLiteral("text"), asked.text);
        texts.add(QStringLiteral("accept"), asked.acceptText);
        texts.add(QStringLiteral("reject"), asked.rejectText);
        expectNoEnglish(texts);
    }

    // lupdate run on the sources into a copy of the .ts finds nothing new, and the .ts holds
    // nothing the sources no longer have: no string left untranslated, none kept for nothing.
    void lupdateFindsNothingToDo()
    {
        const QString ts = QStringLiteral(DELAYQ_SOURCE_DIR "/translations/delayq-admin_zh_CN.ts");
        const QString original = readFile(ts);
        QVERIFY(!original.isEmpty());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString copy = dir.filePath(QStringLiteral("copy_zh_CN.ts"));
        QVERIFY(QFile::copy(ts, copy));
        QStringList args;
        QDirIterator sources(QStringLiteral(DELAYQ_SOURCE_DIR "/ui"), {QStringLiteral("*.cpp")},
                             QDir::Files, QDirIterator::Subdirectories);
        while (sources.hasNext())
            args << sources.next();
        // Includes name their folder from ui/ ("tasks/taskmodel.h"): without the root, lupdate
        // misses the classes' namespaces and takes every message for a new one.
        args << QStringLiteral("-I") << QStringLiteral(DELAYQ_SOURCE_DIR "/ui");
        args << QStringLiteral("-no-obsolete") << QStringLiteral("-locations")
             << QStringLiteral("none") << QStringLiteral("-ts") << copy;
        QProcess lupdate;
        lupdate.start(QStringLiteral(DELAYQ_LUPDATE), args);
        QVERIFY2(lupdate.waitForFinished(60000), qPrintable(lupdate.errorString()));
        QCOMPARE(lupdate.exitCode(), 0);
        const QString updated = readFile(copy);
        QCOMPARE(updated.count(QStringLiteral("type=\"unfinished\"")), 0);
        QCOMPARE(original.count(QStringLiteral("type=\"obsolete\"")) +
                     original.count(QStringLiteral("type=\"vanished\"")),
                 0);
        QCOMPARE(updated.count(QStringLiteral("<message")),
                 original.count(QStringLiteral("<message")));
    }

private:
    // Pending tasks p1, p2 and dead tasks d1, d2 in the queue, opened in the window.
    void openQueueWithTasks()
    {
        m_fixture.pushDead(kQueue, {QStringLiteral("d1"), QStringLiteral("d2")});
        m_fixture.pushTasks(kQueue, {QStringLiteral("p1"), QStringLiteral("p2")});
        m_fixture.openQueue(kQueue);
    }

    void expectNoEnglish(const TextCollector& texts)
    {
        // What the suite put in Redis, and where it runs, is data: shown as it is.
        QStringList data{kQueue, QStringLiteral("boom"), QStringLiteral("delayq-admin")};
        data << m_fixture.window()->client()->settings().url;
        QStringList found;
        for (const auto& [where, text] : texts.texts())
            if (const QStringList words = englishWords(text, data); !words.isEmpty())
                found << QStringLiteral("%1: \"%2\" (%3)").arg(where, text, words.join(u' '));
        found.removeDuplicates();
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("\nstill English:\n") + found.join(QLatin1Char('\n'))));
    }

    static QString readFile(const QString& path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

    bool m_installed = false;
};

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
