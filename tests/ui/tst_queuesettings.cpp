#include "client/adminclient.h"
#include "overview/overviewmodel.h"
#include "overview/overviewpage.h"
#include "queue/queueactions.h"
#include "queue/queuecontrol.h"
#include "queue/queuelist.h"
#include "queue/queuesettingsdialog.h"
#include "redisserver.h"
#include "widgets/fielderror.h"
#include "window/mainwindow.h"
#include "windowsuite.h"
#include <delayq/connection.h>
#include <delayq/queue.h>
#include <delayq/worker.h>

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <atomic>

using namespace delayq::ui;

// The queue settings dialog, pause / resume from the app, and read-only sessions, against a
// real redis-server.
class TestQueueSettings : public WindowSuite
{
    Q_OBJECT

public:
    TestQueueSettings() : WindowSuite(QStringLiteral("tst_queuesettings")) {}

private:
    QueueControl* control() const { return m_fixture.window()->queueControl(); }

    std::unique_ptr<delayq::Connection> connection() const
    {
        return std::make_unique<delayq::Connection>(
            delayq::ConnectionOptions::fromUrl(m_server.unixUrl()));
    }

    QueueSettingsDialog* openLoaded(const QString& queue)
    {
        QueueSettingsDialog* dialog = control()->openSettings(queue);
        QSignalSpy loaded(dialog, &QueueSettingsDialog::loaded);
        if (!loaded.wait(5000))
            return nullptr;
        return dialog;
    }

    long long evalCalls() const
    {
        const QByteArray info =
            m_server.cli({QStringLiteral("INFO"), QStringLiteral("commandstats")});
        const int at = info.indexOf("cmdstat_evalsha:calls=");
        return at < 0 ? 0 : info.mid(at + 22).split(',').first().toLongLong();
    }

private slots:
    void settingsRoundTrip()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        // The defaults, as an operator types them.
        QCOMPARE(dialog->maxAttemptsField()->text(), QStringLiteral("5"));
        QCOMPARE(dialog->backoffField()->text(), QStringLiteral("5s,20s,30s"));
        QCOMPARE(dialog->leaseField()->text(), QStringLiteral("30s"));
        dialog->maxAttemptsField()->setText(QStringLiteral("3"));
        dialog->backoffField()->setText(QStringLiteral("exp:1s:5s"));
        QCOMPARE(dialog->preview()->text(), QStringLiteral("#1: 1s, #2: 2s")); // 3 attempts
        dialog->leaseField()->setText(QStringLiteral("45s"));
        dialog->maxPayloadField()->setText(QStringLiteral("2048"));
        QVERIFY(dialog->saveButton()->isEnabled());
        QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
        dialog->saveButton()->click();
        QVERIFY(saved.wait(5000));
        const auto conn = connection();
        const delayq::QueueConfig config = delayq::Queue(*conn, "orders").config();
        QCOMPARE(config.maxAttempts, 3);
        QCOMPARE(config.backoff, std::string("exp:1000:5000"));
        QCOMPARE(config.leaseMs, 45000);
        QCOMPARE(config.maxPayload, 2048);
        // Read back the way it was written.
        dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QCOMPARE(dialog->backoffField()->text(), QStringLiteral("exp:1s:5s"));
        dialog->reject();
    }

    // The dead bound and expiry (docs/design/bounds.md): behind their button, so the dialog
    // keeps its height; the defaults read back, a refusal names the setting, a save writes them.
    void deadBoundAndExpiry()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(!dialog->deadMaxField()->isVisible());
        dialog->boundsButton()->click();
        QCoreApplication::sendPostedEvents();
        QVERIFY(dialog->deadMaxField()->isVisible());
        QCOMPARE(dialog->deadMaxField()->text(), QStringLiteral("100000"));
        QCOMPARE(dialog->deadMaxBytesField()->text(), QStringLiteral("67108864"));
        QCOMPARE(dialog->maxAgeField()->text(), QStringLiteral("off"));
        dialog->deadMaxBytesField()->setText(QStringLiteral("12x"));
        QVERIFY(!dialog->saveButton()->isEnabled());
        QVERIFY(dialog->errorOf(10)->text().contains(QLatin1String("dead_max_bytes")));
        dialog->deadMaxField()->setText(QStringLiteral("500"));
        dialog->deadMaxBytesField()->setText(QStringLiteral("1MB"));
        dialog->maxAgeField()->setText(QStringLiteral("2h"));
        dialog->expiredToBox()->setCurrentIndex(
            dialog->expiredToBox()->findData(QStringLiteral("drop")));
        QVERIFY(dialog->saveButton()->isEnabled());
        QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
        dialog->saveButton()->click();
        QVERIFY(saved.wait(5000));
        const auto conn = connection();
        const delayq::QueueConfig config = delayq::Queue(*conn, "orders").config();
        QCOMPARE(config.deadMax, 500LL);
        QCOMPARE(config.deadMaxBytes, 1048576LL);
        QCOMPARE(config.maxAgeMs, 7200000LL);
        QVERIFY(config.expiredToDrop);
    }

    // The dedup window and the recycle bin (behind "Dedup and recycle bin…") and the group
    // rate (on the order's row): each typed value is written to the config hash as the CLI
    // writes it, audited by its key alone, and read back as typed.
    void keepAndGroupRateRoundTrip_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QByteArray>("stored"); // HGET of the config hash
        QTest::addColumn<QString>("shown");     // the field when the dialog opens again
        QTest::newRow("dedup_window 1h") << "dedup_window"
                                         << "1h" << QByteArray("3600000") << "1h";
        QTest::newRow("dedup_window 30m") << "dedup_window"
                                          << "30m" << QByteArray("1800000") << "30m";
        QTest::newRow("dedup_max") << "dedup_max"
                                   << "5000" << QByteArray("5000") << "5000";
        QTest::newRow("bin_keep 2h") << "bin_keep"
                                     << "2h" << QByteArray("7200000") << "2h";
        QTest::newRow("bin_keep off") << "bin_keep"
                                      << "off" << QByteArray("0") << "off";
        QTest::newRow("bin_max") << "bin_max"
                                 << "250" << QByteArray("250") << "250";
        QTest::newRow("bin_max empty") << "bin_max"
                                       << "" << QByteArray("0") << "off";
        QTest::newRow("bin_bytes") << "bin_bytes"
                                   << "1048576" << QByteArray("1048576") << "1048576";
        // Sizes as dead_max_bytes reads them (2MB, 64MB, 1GB), kept in bytes.
        QTest::newRow("bin_bytes 2MB") << "bin_bytes"
                                       << "2MB" << QByteArray("2097152") << "2097152";
        QTest::newRow("group_rate 5/s") << "group_rate"
                                        << "5/s" << QByteArray("5/1000") << "5/s";
        QTest::newRow("group_rate 3/250ms") << "group_rate"
                                            << "3/250ms" << QByteArray("3/250") << "3/250ms";
    }
    void keepAndGroupRateRoundTrip()
    {
        QFETCH(QString, key);
        QFETCH(QString, typed);
        QFETCH(QByteArray, stored);
        QFETCH(QString, shown);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        // The defaults, as `delayq config` shows them.
        QCOMPARE(dialog->dedupWindowField()->text(), QStringLiteral("off"));
        QCOMPARE(dialog->dedupMaxField()->text(), QStringLiteral("1000000"));
        QCOMPARE(dialog->binKeepField()->text(), QStringLiteral("1d"));
        QCOMPARE(dialog->binMaxField()->text(), QStringLiteral("100000"));
        QCOMPARE(dialog->binBytesField()->text(), QStringLiteral("67108864"));
        QCOMPARE(dialog->groupRateField()->text(), QString());
        QLineEdit* field = dialog->fieldOf(key);
        QVERIFY(field);
        if (key != QLatin1String("group_rate")) {
            QVERIFY(!field->isVisible());
            dialog->keepButton()->click();
            QCoreApplication::sendPostedEvents();
        }
        QVERIFY(field->isVisible());
        field->setText(typed);
        if (key == QLatin1String("group_rate")) // the queue is in due order
            QVERIFY2(dialog->flowPreview()->text().endsWith(
                         QLatin1String("; the group rate holds only in fair order")),
                     qPrintable(dialog->flowPreview()->text()));
        QVERIFY2(dialog->errorOf(QueueSettingsDialog::indexOf(key))->text().isEmpty(),
                 qPrintable(dialog->errorOf(QueueSettingsDialog::indexOf(key))->text()));
        QVERIFY(dialog->saveButton()->isEnabled());
        QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
        dialog->saveButton()->click();
        QVERIFY(saved.wait(5000));
        QCOMPARE(m_server.cli({QStringLiteral("HGET"), QStringLiteral("dq:{orders}:config"), key})
                     .trimmed(),
                 stored);
        const auto conn = connection();
        const auto entries = delayq::Queue(*conn, "orders").audit(0, 100);
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(QString::fromStdString(entries.front().detail),
                 key + QLatin1Char('=') + QString::fromLatin1(stored));
        dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QCOMPARE(dialog->fieldOf(key)->text(), shown);
        dialog->reject();
    }

    // A refused value is said under its field, naming the setting, and Save (or Enter) writes
    // nothing.
    void keepAndGroupRateRefusals_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("words");
        QTest::newRow("dedup_window too short") << "dedup_window"
                                                << "500ms"
                                                << "dedup_window must be from 1s";
        QTest::newRow("dedup_window garbage") << "dedup_window"
                                              << "soon"
                                              << "dedup_window";
        QTest::newRow("dedup_max 0") << "dedup_max"
                                     << "0"
                                     << "dedup_max must be a whole number";
        QTest::newRow("dedup_max empty") << "dedup_max"
                                         << ""
                                         << "dedup_max";
        QTest::newRow("bin_keep too long") << "bin_keep"
                                           << "31d"
                                           << "bin_keep must be from";
        QTest::newRow("bin_keep garbage") << "bin_keep"
                                          << "a while"
                                          << "bin_keep";
        QTest::newRow("bin_max negative") << "bin_max"
                                          << "-1"
                                          << "bin_max";
        QTest::newRow("bin_bytes with a unit it lacks") << "bin_bytes"
                                                        << "64XB"
                                                        << "bin_bytes must be a size in bytes";
        QTest::newRow("bin_bytes over 4GB") << "bin_bytes"
                                            << "5GB"
                                            << "bin_bytes";
        QTest::newRow("group_rate 0") << "group_rate"
                                      << "0"
                                      << "group_rate";
        QTest::newRow("group_rate without interval") << "group_rate"
                                                     << "5"
                                                     << "group_rate";
    }
    void keepAndGroupRateRefusals()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, words);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        const QByteArray before =
            m_server.cli({QStringLiteral("HGETALL"), QStringLiteral("dq:{orders}:config")});
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        const bool onOrderRow = key == QLatin1String("group_rate");
        if (!onOrderRow)
            dialog->keepButton()->click();
        // A valid change beside the refused one: it is not written either.
        dialog->maxAttemptsField()->setText(QStringLiteral("3"));
        dialog->fieldOf(key)->setText(value);
        const FieldError* error = dialog->errorOf(QueueSettingsDialog::indexOf(key));
        QVERIFY2(error->text().contains(words), qPrintable(error->text()));
        QVERIFY(!error->isHidden());
        QVERIFY(!dialog->saveButton()->isEnabled());
        dialog->accept(); // Enter in a field: refused the same way
        m_fixture.drainRequests();
        QVERIFY(dialog->isVisible());
        QCOMPARE(m_server.cli({QStringLiteral("HGETALL"), QStringLiteral("dq:{orders}:config")}),
                 before);
        // Its part out of sight, the refusal is still said, under the fields shown.
        QVERIFY(dialog->elsewhereError()->text().isEmpty());
        (onOrderRow ? dialog->boundsButton() : dialog->keepButton())->click();
        const QString said = dialog->elsewhereError()->text();
        QVERIFY2(said.startsWith(QLatin1String("Not saved: ")) && said.contains(key),
                 qPrintable(said));
        (onOrderRow ? dialog->boundsButton() : dialog->keepButton())->click();
        QVERIFY(dialog->elsewhereError()->text().isEmpty());
        const auto conn = connection();
        QCOMPARE(delayq::Queue(*conn, "orders").audit(0, 100).size(), size_t(0));
        dialog->reject();
    }

    // Each part behind its button fits a 1024 x 700 screen with its notes whole; the two are
    // never shown at once.
    void partsFitALaptop_data()
    {
        QTest::addColumn<QString>("part");
        QTest::newRow("dead tasks and expiry") << "bounds";
        QTest::newRow("dedup and recycle bin") << "keep";
    }
    void partsFitALaptop()
    {
        QFETCH(QString, part);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        const bool keep = part == QLatin1String("keep");
        // The other part first: opening this one closes it.
        (keep ? dialog->boundsButton() : dialog->keepButton())->click();
        QCoreApplication::sendPostedEvents();
        (keep ? dialog->keepButton() : dialog->boundsButton())->click();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(dialog->binKeepField()->isVisible(), keep);
        QCOMPARE(dialog->deadMaxField()->isVisible(), !keep);
        // A refusal in it too.
        (keep ? dialog->binKeepField() : dialog->deadMaxField())->setText(QStringLiteral("x"));
        QCoreApplication::sendPostedEvents();
        QVERIFY2(dialog->height() <= 700, qPrintable(QString::number(dialog->height())));
        QVERIFY2(dialog->width() <= 1024, qPrintable(QString::number(dialog->width())));
        const QList<QLabel*> labels = dialog->findChildren<QLabel*>();
        for (QLabel* label : labels) {
            if (!label->isVisible() || label->text().isEmpty())
                continue;
            const QRect at(label->mapTo(dialog, QPoint(0, 0)), label->size());
            QVERIFY2(dialog->rect().contains(at), qPrintable(label->text()));
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(label->text()));
        }
        QLineEdit* field = keep ? dialog->binKeepField() : dialog->deadMaxField();
        QVERIFY(field->height() >= field->sizeHint().height());
        // Back on the other fields, the refusal out of sight is said and still fits.
        (keep ? dialog->keepButton() : dialog->boundsButton())->click();
        QCoreApplication::sendPostedEvents();
        QVERIFY(dialog->elsewhereError()->isVisible());
        QVERIFY2(dialog->height() <= 700, qPrintable(QString::number(dialog->height())));
        const QRect at(dialog->elsewhereError()->mapTo(dialog, QPoint(0, 0)),
                       dialog->elsewhereError()->size());
        QVERIFY(dialog->rect().contains(at));
        dialog->reject();
    }

    // The dialog is sized for what it shows: the preview, the notes and a refusal are whole,
    // inside the dialog, on every line they wrap to (it opened at 236 x 178, cutting them).
    void everyTextIsReadable_data()
    {
        QTest::addColumn<int>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("loaded") << -1 << QString();
        QTest::newRow("a refused backoff") << 1 << QStringLiteral("exp:5m:1s");
        QTest::newRow("a refused lease") << 2 << QStringLiteral("50ms");
        QTest::newRow("a long preview") << 0 << QStringLiteral("1000000");
    }
    void everyTextIsReadable()
    {
        QFETCH(int, field);
        QFETCH(QString, value);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QLineEdit* fields[] = {dialog->maxAttemptsField(), dialog->backoffField(),
                               dialog->leaseField(), dialog->maxPayloadField()};
        if (field >= 0)
            fields[field]->setText(value);
        QList<QLabel*> labels{dialog->preview(), dialog->attemptsNote(), dialog->backoffNote()};
        if (field >= 0 && field != 0)
            labels.append(dialog->errorOf(field));
        QCoreApplication::sendPostedEvents(); // the layout runs
        for (QLabel* label : labels) {
            QVERIFY(label->isVisible());
            const QRect at(label->mapTo(dialog, QPoint(0, 0)), label->size());
            QVERIFY2(dialog->rect().contains(at), qPrintable(label->text()));
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(label->text()));
        }
        // Not a column of one word a line: the preview takes at most two.
        QVERIFY(dialog->preview()->height() <= 2 * dialog->fontMetrics().lineSpacing() + 4);
        dialog->reject();
    }

    // Typing never grows the dialog or moves a field under the pointer: refusals that come and
    // go and a preview that lengthens keep the room they had (issue 49, item 7).
    void typingKeepsTheDialogStill()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QLineEdit* fields[] = {dialog->maxAttemptsField(), dialog->backoffField(),
                               dialog->leaseField(), dialog->maxPayloadField()};
        auto where = [&] {
            QList<QRect> at{dialog->geometry()};
            for (QLineEdit* field : fields)
                at.append(QRect(field->mapTo(dialog, QPoint(0, 0)), field->size()));
            at.append(QRect(dialog->saveButton()->mapTo(dialog, QPoint(0, 0)),
                            dialog->saveButton()->size()));
            return at;
        };
        QCoreApplication::sendPostedEvents();
        const QList<QRect> before = where();
        // The room kept for the refusals still fits a laptop's screen.
        QVERIFY2(dialog->height() <= 650, qPrintable(QString::number(dialog->height())));
        const QList<QPair<int, QString>> typed = {
            {1, QStringLiteral("exp:5m:1s")},
            {2, QStringLiteral("50ms")},
            {3, QStringLiteral("x")},
            {0, QStringLiteral("1000000")},
            {1, QStringLiteral("1s,2s,3s,4s,5s,6s,7s,8s,9s,10s,11s")},
            {0, QStringLiteral("abc")}};
        for (const auto& [field, text] : typed) {
            fields[field]->clear();
            QTest::keyClicks(fields[field], text);
            QCoreApplication::sendPostedEvents(); // the layout runs
            QCOMPARE(where(), before);
        }
        QVERIFY(dialog->errorOf(0)->isVisible());
        QVERIFY(dialog->errorOf(2)->isVisible());
        // Fixed again, the refusals go and still nothing moves.
        for (int i = 0; i < 4; ++i)
            fields[i]->clear();
        QTest::keyClicks(fields[0], QStringLiteral("5"));
        QTest::keyClicks(fields[1], QStringLiteral("5s"));
        QTest::keyClicks(fields[2], QStringLiteral("30s"));
        QTest::keyClicks(fields[3], QStringLiteral("2048"));
        QCoreApplication::sendPostedEvents();
        QVERIFY(!dialog->errorOf(2)->isVisible());
        QCOMPARE(where(), before);
        dialog->reject();
    }

    // What max attempts and backoff do to tasks already queued is said next to them (what
    // push.lua and nack.lua do: tst_queuepush and tst_queueclaim).
    void notesSayWhatQueuedTasksKeep()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QVERIFY(dialog->attemptsNote()->text().contains(QStringLiteral("already queued keep")));
        QVERIFY(dialog->backoffNote()->text().contains(QStringLiteral("each time a task fails")));
        dialog->reject();
    }

    // The preview lists the retries that happen: max attempts - 1 of them.
    void previewStopsAtMaxAttempts_data()
    {
        QTest::addColumn<QString>("attempts");
        QTest::addColumn<QString>("backoff");
        QTest::addColumn<QString>("preview");
        QTest::newRow("defaults") << QStringLiteral("5") << QStringLiteral("5s,20s,30s")
                                  << QStringLiteral("#1: 5s, #2: 20s, #3: 30s, #4: 30s");
        QTest::newRow("three attempts") << QStringLiteral("3") << QStringLiteral("exp:1s:5s")
                                        << QStringLiteral("#1: 1s, #2: 2s");
        QTest::newRow("one attempt") << QStringLiteral("1") << QStringLiteral("5s")
                                     << QStringLiteral("none: a task that fails once is dead");
        QTest::newRow("six attempts") << QStringLiteral("6") << QStringLiteral("exp:1s:1m")
                                      << QStringLiteral("#1: 1s, #2: 2s, #3: 4s, #4: 8s, #5: 16s");
        QTest::newRow("more than shown")
            << QStringLiteral("20") << QStringLiteral("exp:1s:1m")
            << QStringLiteral("#1: 1s, #2: 2s, #3: 4s, #4: 8s, #5: 16s, … #19: 1m");
        QTest::newRow("a million attempts")
            << QStringLiteral("1000000") << QStringLiteral("5s,20s")
            << QStringLiteral("#1: 5s, #2: 20s, #3: 20s, #4: 20s, #5: 20s, … #999999: 20s");
        QTest::newRow("max attempts refused: no end known")
            << QStringLiteral("0") << QStringLiteral("5s")
            << QStringLiteral("#1: 5s, #2: 5s, #3: 5s, #4: 5s, #5: 5s, …");
    }
    void previewStopsAtMaxAttempts()
    {
        QFETCH(QString, attempts);
        QFETCH(QString, backoff);
        QFETCH(QString, preview);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        dialog->backoffField()->setText(backoff);
        dialog->maxAttemptsField()->setText(attempts); // the preview follows either field
        QCOMPARE(dialog->preview()->text(), preview);
        dialog->reject();
    }

    // One Save, one audit entry, naming only what changed; the rest is not written.
    void saveAuditsOnlyWhatChanged()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        dialog->maxAttemptsField()->setText(QStringLiteral("3"));
        dialog->leaseField()->setText(QStringLiteral("45s"));
        dialog->backoffField()->setText(QStringLiteral("5000ms,20s,30s")); // the same, typed anew
        QSignalSpy saved(dialog, &QueueSettingsDialog::saved);
        dialog->saveButton()->click();
        QVERIFY(saved.wait(5000));
        const auto conn = connection();
        delayq::Queue q(*conn, "orders");
        const auto entries = q.audit(0, 100);
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries.front().action, std::string("config"));
        QCOMPARE(entries.front().detail, std::string("max_attempts=3 lease_ms=45000"));
        QCOMPARE(entries.front().tool, std::string("delayq-admin"));
        // The untouched settings stay unset (still the defaults), not written as if chosen.
        for (const char* untouched : {"backoff", "max_payload"})
            QCOMPARE(m_server
                         .cli({QStringLiteral("HEXISTS"), QStringLiteral("dq:{orders}:config"),
                               QString::fromLatin1(untouched)})
                         .trimmed(),
                     QByteArray("0"));
        QCOMPARE(q.config().maxAttempts, 3);
        QCOMPARE(q.config().leaseMs, 45000LL);
    }

    // A Save that changes nothing closes the dialog and writes nothing at all.
    void saveOfNothingWritesNothing()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        dialog->leaseField()->setText(QStringLiteral("30000ms")); // the loaded 30s, retyped
        const long long calls = evalCalls();
        QSignalSpy finished(dialog, &QDialog::finished);
        QVERIFY(dialog->saveButton()->isEnabled());
        dialog->saveButton()->click();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().toInt(), int(QDialog::Accepted));
        m_fixture.drainRequests();
        QCOMPARE(evalCalls(), calls);
        const auto conn = connection();
        QCOMPARE(delayq::Queue(*conn, "orders").audit(0, 100).size(), size_t(0));
        QCOMPARE(m_server.cli({QStringLiteral("EXISTS"), QStringLiteral("dq:{orders}:config")})
                     .trimmed(),
                 QByteArray("0"));
    }

    void settingsRefusals_data()
    {
        QTest::addColumn<int>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("backoff garbage")
            << 1 << QStringLiteral("5s,,x") << QStringLiteral("invalid backoff");
        QTest::newRow("exp without max")
            << 1 << QStringLiteral("exp:1s") << QStringLiteral("exp needs");
        QTest::newRow("exp max below base")
            << 1 << QStringLiteral("exp:5m:1s") << QStringLiteral("maximum");
        QTest::newRow("zero attempts")
            << 0 << QStringLiteral("0") << QStringLiteral("from 1 to 1000000");
        QTest::newRow("attempts text")
            << 0 << QStringLiteral("many") << QStringLiteral("whole number");
        QTest::newRow("lease too short")
            << 2 << QStringLiteral("50ms") << QStringLiteral("lease_ms must be from");
        QTest::newRow("payload too big")
            << 3 << QStringLiteral("999999999999") << QStringLiteral("max_payload");
    }
    void settingsRefusals()
    {
        QFETCH(int, field);
        QFETCH(QString, value);
        QFETCH(QString, error);
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.openQueue(QStringLiteral("orders"));
        const QByteArray before =
            m_server.cli({QStringLiteral("HGETALL"), QStringLiteral("dq:{orders}:config")});
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QLineEdit* fields[] = {dialog->maxAttemptsField(), dialog->backoffField(),
                               dialog->leaseField(), dialog->maxPayloadField()};
        fields[field]->setText(value);
        QVERIFY2(dialog->errorOf(field)->text().contains(error),
                 qPrintable(dialog->errorOf(field)->text()));
        QVERIFY(!dialog->errorOf(field)->isHidden());
        QVERIFY(!dialog->saveButton()->isEnabled());
        dialog->accept(); // Enter in a field: refused the same way
        m_fixture.drainRequests();
        QVERIFY(dialog->isVisible());
        QCOMPARE(m_server.cli({QStringLiteral("HGETALL"), QStringLiteral("dq:{orders}:config")}),
                 before);
        dialog->reject();
    }

    void pauseAndResumeSeenByWorker()
    {
        m_fixture.pushTasks(QStringLiteral("jobs"), {QStringLiteral("t1")});
        m_fixture.openQueue(QStringLiteral("jobs"));
        QAction* pause = control()->pauseAction();
        QVERIFY(pause->isEnabled());
        QCOMPARE(pause->text(), QStringLiteral("Pause jobs…"));
        QSignalSpy changed(control(), &QueueControl::pausedChanged);
        QList<Confirmation> asked;
        control()->setConfirmHandler([&asked](const Confirmation& c) {
            asked.append(c);
            return true;
        });
        pause->trigger();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().text.contains(QStringLiteral("Pause queue jobs on ")),
                 qPrintable(asked.first().text));
        QVERIFY(changed.wait(5000));
        const auto conn = connection();
        QVERIFY(delayq::Queue(*conn, "jobs").config().paused);
        QTRY_VERIFY(m_fixture.window()->windowTitle().contains(QStringLiteral("(paused)")));
        QTRY_VERIFY(m_fixture.window()->queueList()->isMarkedPaused(QStringLiteral("jobs")));
        QCOMPARE(pause->text(), QStringLiteral("Resume jobs"));

        // A worker polls the paused queue and gets nothing.
        delayq::WorkerOptions options;
        options.connection = delayq::ConnectionOptions::fromUrl(m_server.unixUrl());
        options.queue = "jobs";
        options.pollInterval = std::chrono::milliseconds(50);
        std::atomic<int> handled{0};
        delayq::Worker worker(options, [&](const delayq::ClaimedTask&) {
            ++handled;
            return delayq::HandlerResult::ack();
        });
        const long long callsBefore = evalCalls();
        QVERIFY(worker.start());
        QTRY_VERIFY(evalCalls() >= callsBefore + 5); // it asked several times
        QCOMPARE(handled.load(), 0);
        QCOMPARE(worker.counters().claimed, 0);

        pause->trigger(); // resume
        QVERIFY(changed.wait(5000));
        QCOMPARE(asked.size(), 1); // resuming does not ask
        QVERIFY(!delayq::Queue(*conn, "jobs").config().paused);
        QTRY_COMPARE(handled.load(), 1);
        QTRY_VERIFY(!m_fixture.window()->windowTitle().contains(QStringLiteral("(paused)")));
        QTRY_VERIFY(!m_fixture.window()->queueList()->isMarkedPaused(QStringLiteral("jobs")));
        worker.stop();
    }

    // On the Overview the queue-wide actions aim at the selected row, name it, and are off
    // with no row selected: never at the queue open behind the page (issue 49, path 1).
    void overviewActionsAimAtSelectedRow()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.pushTasks(QStringLiteral("mail"), {QStringLiteral("m")});
        m_fixture.openQueue(QStringLiteral("orders"));
        MainWindow* window = m_fixture.window();
        QCOMPARE(control()->pauseAction()->text(), QStringLiteral("Pause orders…"));
        window->showOverview();
        OverviewPage* page = window->overview();
        QTRY_VERIFY(page->model()->rowNamed(QStringLiteral("mail")));
        page->view()->clearSelection();
        // Nothing selected on the page: nothing to aim at.
        QTRY_VERIFY(!control()->pauseAction()->isEnabled());
        QVERIFY(!window->queueActions()->purge()->isEnabled());
        QVERIFY(!control()->settingsAction()->isEnabled());
        // The queue list marks what the actions aim at, not the queue behind the page.
        QTableView* list = window->queueList()->view();
        const auto marked = [list] {
            const auto rows = list->selectionModel()->selectedRows();
            return rows.isEmpty() ? QString() : rows.first().data().toString();
        };
        QTRY_COMPARE(marked(), QString());
        const auto hits =
            page->proxy()->match(page->proxy()->index(0, OverviewModel::Name), Qt::DisplayRole,
                                 QStringLiteral("mail"), 1, Qt::MatchExactly);
        QCOMPARE(hits.size(), 1);
        page->view()->setCurrentIndex(hits.first());
        QVERIFY(control()->pauseAction()->isEnabled());
        QCOMPARE(control()->pauseAction()->text(), QStringLiteral("Pause mail…"));
        QCOMPARE(window->queueActions()->purge()->text(), QStringLiteral("Purge mail…"));
        QCOMPARE(control()->settingsAction()->text(), QStringLiteral("Settings of mail…"));
        QTRY_COMPARE(marked(), QStringLiteral("mail"));
        // A refusal changes nothing; a yes pauses mail, not orders.
        QList<Confirmation> asked;
        bool answer = false;
        control()->setConfirmHandler([&](const Confirmation& c) {
            asked.append(c);
            return answer;
        });
        control()->pauseAction()->trigger();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().text.contains(QStringLiteral("Pause queue mail on ")),
                 qPrintable(asked.first().text));
        m_fixture.drainRequests();
        const auto conn = connection();
        QVERIFY(!delayq::Queue(*conn, "mail").config().paused);
        answer = true;
        QSignalSpy changed(control(), &QueueControl::pausedChanged);
        control()->pauseAction()->trigger();
        QVERIFY(changed.wait(5000));
        QVERIFY(delayq::Queue(*conn, "mail").config().paused);
        QVERIFY(!delayq::Queue(*conn, "orders").config().paused);
        QTRY_COMPARE(control()->pauseAction()->text(), QStringLiteral("Resume mail"));
        // Back on the queue's page the actions aim at the open queue again.
        m_fixture.openQueue(QStringLiteral("orders"));
        QCOMPARE(control()->pauseAction()->text(), QStringLiteral("Pause orders…"));
        QCOMPARE(window->queueActions()->purge()->text(), QStringLiteral("Purge orders…"));
        QTRY_COMPARE(marked(), QStringLiteral("orders"));
    }

    void readOnlyDisablesEveryWrite()
    {
        m_fixture.pushTasks(QStringLiteral("orders"), {QStringLiteral("a")});
        m_fixture.connectWindow(true);
        QSignalSpy loaded(m_fixture.window(), &MainWindow::queueLoaded);
        m_fixture.window()->openQueue(QStringLiteral("orders"));
        QVERIFY(loaded.wait(5000));
        QVERIFY(!control()->pauseAction()->isEnabled());
        QVERIFY(control()->settingsAction()->isEnabled()); // to read them
        QueueSettingsDialog* dialog = openLoaded(QStringLiteral("orders"));
        QVERIFY(dialog);
        QCOMPARE(dialog->maxAttemptsField()->text(), QStringLiteral("5")); // read, still
        for (QLineEdit* field : {dialog->maxAttemptsField(), dialog->backoffField(),
                                 dialog->leaseField(), dialog->maxPayloadField()})
            QVERIFY(!field->isEnabled());
        QVERIFY(!dialog->saveButton()->isEnabled());
        dialog->reject();
        // The overview's menu: pause disabled; a direct call writes nothing either.
        OverviewPage* page = m_fixture.window()->overview();
        QTRY_VERIFY(page->model()->rowNamed(QStringLiteral("orders")));
        QObject owner;
        const QList<QAction*> actions = page->contextActions(QStringLiteral("orders"), &owner);
        QCOMPARE(actions[1]->text(), QStringLiteral("Pause"));
        QVERIFY(!actions[1]->isEnabled());
        control()->setPaused(QStringLiteral("orders"), true);
        m_fixture.drainRequests();
        QVERIFY(m_server
                    .cli({QStringLiteral("HGET"), QStringLiteral("dq:{orders}:config"),
                          QStringLiteral("paused")})
                    .trimmed()
                    .isEmpty());
    }
};

QTEST_MAIN(TestQueueSettings)
#include "tst_queuesettings.moc"
