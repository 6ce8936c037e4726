#include "queuesuite.h"
#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/keys.h>
#include <delayq/queue.h>
#include <delayq/script.h>

#include <QTest>

#include <map>

using namespace delayq;

namespace {

// n distinct ids or members, to go past a script's 1,000 a call.
QStringList many(int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << QStringLiteral("x%1").arg(i);
    return out;
}

// One push task's three values: id, payload, due value.
QStringList task(const QString& id, const QString& due = "0")
{
    return {id, "payload", due};
}

QStringList tasks(int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out << task(QStringLiteral("new%1").arg(i));
    return out;
}

// import_tasks ARGV: mode, wake channel, n, then eleven values per task, then the payloads.
// A task: id, state, due, died, created, attempts, max attempts, backoff, last error, history,
// fair order's tag ("PRIORITY|GROUP", since 2.9).
QStringList importArgv(const QString& mode, const QList<QStringList>& tasks, const QString& n = {})
{
    QStringList out{mode, "", n.isEmpty() ? QString::number(tasks.size()) : n};
    for (const auto& t : tasks)
        out << t;
    for (qsizetype i = 0; i < tasks.size(); ++i)
        out << "payload";
    return out;
}

QStringList imported(const QString& id, const QString& state = "pending",
                     const QString& due = "1000", const QString& attempts = "0",
                     const QString& backoff = "", const QString& history = "",
                     const QString& tag = "")
{
    return {id, state, due, "0", "1000", attempts, "0", backoff, "", history, tag};
}

const Script* scriptNamed(const QString& name)
{
    for (const Script* script : scripts::all())
        if (QString::fromStdString(std::string(script->name)) == name)
            return script;
    return nullptr;
}

// The nine KEYS of every native-queue script of the queue "orders", in the order of their
// contracts (what Queue::scriptKeys() builds; it is private).
std::vector<std::string> queueKeys()
{
    const Keys k("dq", "orders");
    return {k.pending(), k.active(),       k.dead(), k.dataPrefix(), k.config(),
            k.stats(),   k.minutePrefix(), k.run(),  k.errors()};
}

} // namespace

// Each lua/ script called directly with ARGV its opening contract rules out (a wrong count, a
// word that is not a number, a limit out of range): it must answer INVALID and change nothing.
// The core checks its input before it sends anything, so these calls never come from Queue or
// PlainQueue; they stand for any other client of the scripts, and for a later bug in the core.
class TestScriptContracts : public QueueSuite
{
    Q_OBJECT

protected:
    // Something in every set the scripts touch, so that "nothing changed" means something: a
    // dead task, an active one (its token replaces "{token}" in a row's ARGV), a due and a
    // later pending task, and a plain key with a due and a later member.
    void initTest() override
    {
        QueueSuite::initTest();
        Queue& q = *m_queue;
        PushRequest dead = request("d", 0, "dead");
        dead.dueAtMs = 1000;
        dead.maxAttempts = 1;
        q.push(dead);
        const auto dying = q.claim(1, 60'000, "w");
        QCOMPARE(dying.tasks.size(), size_t(1));
        QVERIFY(q.nack("dead", dying.tasks[0].token, "died").dead);

        PushRequest active = request("a", 0, "active");
        active.dueAtMs = 2000;
        q.push(active);
        const auto held = q.claim(1, 60'000, "w");
        QCOMPARE(held.tasks.size(), size_t(1));
        m_token = QString::fromStdString(held.tasks[0].token);

        PushRequest due = request("p", 0, "due");
        due.dueAtMs = 3000;
        q.push(due);
        q.push(request("l", 3'600'000, "later"));
        m_conn->command({"ZADD", "plain", "1000", "m-due", "4102444800000", "m-later"});
    }

private slots:
    void badArgvIsInvalid_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QStringList>("keys"); // {"queue"} = the seven of a native queue
        QTest::addColumn<QStringList>("argv");

        const QStringList queue{"queue"};
        const QStringList plain{"plain"};
        const QStringList plainAndList{"plain", "broker"};
        auto rawRow = [&](const char* name, const QString& script, const QStringList& keys,
                          const QStringList& argv) {
            QTest::addRow("%s: %s", qPrintable(script), name) << script << keys << argv;
        };
        // The scripts that write the audit trail take the actor as their last ARGV value: each
        // row gets an empty one (no actor), so it is refused for the reason its name says and
        // not for a missing actor. "no ARGV" rows stay empty.
        const QStringList audited{"push",  "cancel", "reschedule", "requeue",     "delete_dead",
                                  "purge", "config", "restore",    "import_tasks"};
        auto row = [&](const char* name, const QString& script, const QStringList& keys,
                       const QStringList& argv) {
            const bool actor = audited.contains(script) && !argv.isEmpty();
            rawRow(name, script, keys, actor ? argv + QStringList{""} : argv);
        };
        const QString who = "alice\nops\nlaptop\ndelayq\n0.1.0"; // a well-formed actor

        row("n not a number", "push", queue, QStringList{"nx", "", "in", "", "x"} + task("new"));
        row("n negative", "push", queue, {"nx", "", "in", "", "-1"});
        row("n above 1000", "push", queue, QStringList{"nx", "", "in", "", "1001"} + tasks(1001));
        row("a value missing", "push", queue,
            QStringList{"nx", "", "in", "", "1"} + task("new").mid(0, 2));
        row("a value too many", "push", queue, {"nx", "", "in", "", "0", "extra"});
        row("no ARGV", "push", queue, {});
        row("due value not a number", "push", queue,
            QStringList{"nx", "", "in", "", "1"} + task("new", "soon"));
        row("due value not a number in the second task", "push", queue,
            QStringList{"nx", "", "in", "", "2"} + task("new") + task("new2", "soon"));
        row("n not whole", "push", queue,
            QStringList{"nx", "", "in", "", "1.5"} + task("new") + task("new2").mid(0, 2));
        row("mode neither nx nor replace", "push", queue,
            QStringList{"upsert", "", "in", "", "1"} + task("new"));
        row("due kind neither at nor in", "push", queue,
            QStringList{"nx", "", "later", "", "1"} + task("new"));
        row("due value infinite", "push", queue,
            QStringList{"nx", "", "in", "", "1"} + task("new", "inf"));
        row("id empty", "push", queue, QStringList{"nx", "", "in", "", "1"} + task(""));
        row("max attempts not a number", "push", queue,
            QStringList{"nx", "", "in", "", "many|", "1"} + task("new"));
        row("settings without the bar", "push", queue,
            QStringList{"nx", "", "in", "", "3", "1"} + task("new"));
        row("backoff holding a bar", "push", queue,
            QStringList{"nx", "", "in", "", "3|5000|6000", "1"} + task("new"));
        row("priority above 9", "push", queue,
            QStringList{"nx", "", "in", "", "0||10|g", "1"} + task("new"));
        row("priority not a number", "push", queue,
            QStringList{"nx", "", "in", "", "0||high|g", "1"} + task("new"));
        row("group holding a space", "push", queue,
            QStringList{"nx", "", "in", "", "0||1|a b", "1"} + task("new"));

        row("max not a number", "claim", queue, {"x", "1000", "w", "t"});
        row("max 0", "claim", queue, {"0", "1000", "w", "t"});
        row("max above 1000", "claim", queue, {"1001", "1000", "w", "t"});
        row("lease not a number", "claim", queue, {"1", "soon", "w", "t"});
        row("lease negative", "claim", queue, {"1", "-1", "w", "t"});
        row("no ARGV", "claim", queue, {});
        row("max not whole", "claim", queue, {"1.5", "1000", "w", "t"});
        row("token empty", "claim", queue, {"1", "1000", "w", ""});
        row("token holding a bar", "claim", queue, {"1", "1000", "w", "t|1"});
        row("max nan", "claim", queue, {"nan", "1000", "w", "t"});
        row("worker and token missing", "claim", queue, {"1", "1000"});
        row("share not K/S", "claim", queue, {"1", "1000", "w", "t", "half"});
        row("share K not below S", "claim", queue, {"1", "1000", "w", "t", "3/3"});
        row("share of 0 shards", "claim", queue, {"1", "1000", "w", "t", "0/0"});

        row("n not a number", "ack", queue, {"x", "active", "{token}"});
        row("n negative", "ack", queue, {"-1"});
        row("n above 1000", "ack", queue, QStringList{"1001"} + many(2002));
        row("token missing", "ack", queue, {"1", "active"});
        row("a pair too many", "ack", queue, {"0", "active", "{token}"});
        row("no ARGV", "ack", queue, {});
        row("n not whole", "ack", queue, {"0.5", "active"});

        row("retry delay not a number", "nack", queue, {"active", "{token}", "e", "soon", ""});
        row("no retry delay", "nack", queue, {"active", "{token}", "e"});
        row("retry delay below -1", "nack", queue, {"active", "{token}", "e", "-5", ""});
        row("no wake channel", "nack", queue, {"active", "{token}", "e", "0"});
        row("no ARGV", "nack", queue, {});

        row("lease not a number", "extend", queue, {"active", "{token}", "soon"});
        row("lease negative", "extend", queue, {"active", "{token}", "-1"});
        row("no ARGV", "extend", queue, {});
        row("lease infinite", "extend", queue, {"active", "{token}", "inf"});

        row("max not a number", "reap", queue, {"x", ""});
        row("max 0", "reap", queue, {"0", ""});
        row("max above 1000", "reap", queue, {"1001", ""});
        row("no ARGV", "reap", queue, {});
        row("max not whole", "reap", queue, {"1.5", ""});
        row("no wake channel", "reap", queue, {"10"});

        row("more than 1000 ids", "cancel", queue, QStringList{"0", ""} + many(1001));
        row("force neither 0 nor 1", "cancel", queue, {"yes", "", "later"});
        row("bin action id with a space", "cancel", queue, {"0", "a b", "later"});
        row("no ARGV", "cancel", queue, {});

        row("due kind neither at nor in", "reschedule", queue, {"later", "0", "", "later"});
        row("due value not a number", "reschedule", queue, {"in", "soon", "", "later"});
        row("more than 1000 ids", "reschedule", queue, QStringList{"in", "0", ""} + many(1001));
        row("no ARGV", "reschedule", queue, {});
        row("due value infinite", "reschedule", queue, {"in", "inf", "", "later"});
        row("no wake channel", "reschedule", queue, {"in", "0"});

        row("mode neither ids nor all", "requeue", queue, {"some", "1", "", "dead"});
        row("limit not a number", "requeue", queue, {"all", "x", ""});
        row("limit 0", "requeue", queue, {"all", "0", ""});
        row("limit above 1000", "requeue", queue, {"all", "1001", ""});
        row("more than 1000 ids", "requeue", queue, QStringList{"ids", "1", ""} + many(1001));
        row("no ARGV", "requeue", queue, {});
        row("limit not whole", "requeue", queue, {"all", "1.5", ""});
        row("no wake channel", "requeue", queue, {"all", "10"});

        row("mode neither ids nor all", "delete_dead", queue, {"some", "1", "", "dead"});
        row("limit not a number", "delete_dead", queue, {"all", "x", ""});
        row("limit 0", "delete_dead", queue, {"all", "0", ""});
        row("limit above 1000", "delete_dead", queue, {"all", "1001", ""});
        row("more than 1000 ids", "delete_dead", queue, QStringList{"ids", "1", ""} + many(1001));
        row("no ARGV", "delete_dead", queue, {});
        row("limit not whole", "delete_dead", queue, {"all", "1.5", ""});
        row("bin action id with a brace", "delete_dead", queue, {"all", "10", "a{b}"});

        row("due neither keep nor at", "restore", queue, {"now", "0", "", "later"});
        row("due ms negative", "restore", queue, {"at", "-1", "", "later"});
        row("due ms not whole", "restore", queue, {"at", "1.5", "", "later"});
        row("due ms infinite", "restore", queue, {"at", "inf", "", "later"});
        row("no wake channel", "restore", queue, {"keep", "0"});
        row("more than 1000 ids", "restore", queue, QStringList{"keep", "0", ""} + many(1001));
        row("no ARGV", "restore", queue, {});

        rawRow("actor missing", "cancel", queue, {"0", "", "later"});
        rawRow("actor of four fields", "cancel", queue,
               {"0", "", "later", "alice\nops\nlaptop\ndelayq"});
        rawRow("actor of six fields", "reschedule", queue, {"in", "0", "", "later", who + "\nx"});
        rawRow("actor too long", "purge", queue, {"10", "", who + QString(1100, 'x')});
        rawRow("actor missing", "push", queue, QStringList{"nx", "", "in", "", "1"} + task("new"));
        rawRow("actor of one field", "push", queue,
               QStringList{"nx", "", "in", "", "1"} + task("new") + QStringList{"alice"});
        rawRow("actor missing", "requeue", queue, {"ids", "1", "", "dead"});
        rawRow("actor missing", "delete_dead", queue, {"ids", "1", "", "dead"});
        rawRow("actor missing", "restore", queue, {"keep", "0", "", "later"});
        rawRow("force neither 0 nor 1, with an actor", "cancel", queue, {"yes", "", "later", who});
        rawRow("limit 0, with an actor", "purge", queue, {"0", "", who});
        rawRow("n above 1000, with an actor", "push", queue,
               QStringList{"nx", "", "in", "", "1001"} + tasks(1001) + QStringList{who});

        row("unknown field", "config", queue, {"colour", "blue"});
        row("paused neither 0 nor 1", "config", queue, {"paused", "2"});
        row("max_attempts 0", "config", queue, {"max_attempts", "0"});
        row("lease_ms not whole", "config", queue, {"lease_ms", "1500.5"});
        row("audit_len above 1000000", "config", queue, {"audit_len", "1000001"});
        row("audit_len not in its plain form", "config", queue, {"audit_len", "1e3"});
        row("history above 100", "config", queue, {"history", "101"});
        row("history negative", "config", queue, {"history", "-1"});
        row("backoff empty", "config", queue, {"backoff", ""});
        row("rate without an interval", "config", queue, {"rate", "50"});
        row("rate of 0 tasks", "config", queue, {"rate", "0/1000"});
        row("rate interval above a day", "config", queue, {"rate", "5/86400001"});
        row("cap negative", "config", queue, {"cap", "-1"});
        row("burst not whole", "config", queue, {"burst", "2.5"});
        row("order neither due nor fair", "config", queue, {"order", "random"});
        row("group_cap above 1000000", "config", queue, {"group_cap", "1000001"});
        row("value missing", "config", queue, {"paused"});
        row("no ARGV", "config", queue, {});
        row("a field given twice", "config", queue, {"lease_ms", "1000", "lease_ms", "2000"});
        // Every pair is checked before any is written.
        row("the second pair bad", "config", queue, {"lease_ms", "1000", "max_attempts", "0"});
        rawRow("actor malformed", "config", queue, {"paused", "1", "alice"});
        rawRow("actor missing", "import_tasks", queue, importArgv("skip", {imported("new")}));

        row("limit not a number", "purge", queue, {"x", ""});
        row("limit 0", "purge", queue, {"0", ""});
        row("limit above 1000", "purge", queue, {"1001", ""});
        row("bin action id too long", "purge", queue, {"10", QString(65, 'a')});
        row("no ARGV", "purge", queue, {});

        const QStringList upgrade{"upgrade"};
        row("limit 0", "upgrade", upgrade, {"0"});
        row("limit above 1000", "upgrade", upgrade, {"1001"});
        row("an extra value", "upgrade", upgrade, {"10", "1:0"});
        row("no ARGV", "upgrade", upgrade, {});
        row("only nine KEYS", "upgrade", queue, {"10"});
        row("limit not whole", "purge", queue, {"1.5", ""});
        row("limit nan", "purge", queue, {"nan", ""});

        row("max not a number", "plain_pop", plain, {"x", "ms", "0"});
        row("max 0", "plain_pop", plain, {"0", "ms", "0"});
        row("max above 1000", "plain_pop", plain, {"1001", "ms", "0"});
        row("unit neither ms nor s", "plain_pop", plain, {"1", "h", "0"});
        row("forward without the list key", "plain_pop", plain, {"1", "ms", "1"});
        row("no ARGV", "plain_pop", plain, {});
        row("max not whole", "plain_pop", plain, {"1.5", "ms", "0"});
        row("forward neither 0 nor 1", "plain_pop", plainAndList, {"1", "ms", "yes"});

        row("score not a number", "plain_reschedule", plain, {"soon", "m-later"});
        row("more than 1000 members", "plain_reschedule", plain, QStringList{"5"} + many(1001));
        row("no ARGV", "plain_reschedule", plain, {});
        row("score nan", "plain_reschedule", plain, {"nan", "m-later"});

        // schedule_make: its actor is the last value too.
        rawRow("mode neither now nor backfill", "schedule_make", queue,
               {"later", "beat", "", "", "r1", ""});
        rawRow("request id with a space", "schedule_make", queue,
               {"now", "beat", "", "", "a b", ""});
        rawRow("request id too long", "schedule_make", queue,
               {"now", "beat", "", "", QString(65, 'r'), ""});
        rawRow("n above 1000", "schedule_make", queue,
               QStringList{"backfill", "beat", "1", "", "1001"} + many(1001) + QStringList{""});
        rawRow("n 0", "schedule_make", queue, {"backfill", "beat", "1", "", "0", ""});
        rawRow("a fire after now", "schedule_make", queue,
               {"backfill", "beat", "1", "", "1", "8000000000000000", ""});
        rawRow("fires not ascending", "schedule_make", queue,
               {"backfill", "beat", "1", "", "2", "2000", "1000", ""});
        rawRow("version not a number", "schedule_make", queue,
               {"backfill", "beat", "v1", "", "1", "1000", ""});
        rawRow("no actor", "schedule_make", queue, {"now", "beat", "", "", "r1"});
        rawRow("no ARGV", "schedule_make", queue, {});

        row("max 0", "plain_lease", plain, {"0", "ms", "30000"});
        row("max above 1000", "plain_lease", plain, {"1001", "ms", "30000"});
        row("unit neither ms nor s", "plain_lease", plain, {"1", "h", "30000"});
        row("lease 0", "plain_lease", plain, {"1", "ms", "0"});
        row("lease above 24 h", "plain_lease", plain, {"1", "ms", "86400001"});
        row("lease not whole", "plain_lease", plain, {"1", "ms", "1.5"});
        row("no ARGV", "plain_lease", plain, {});

        row("n not a number", "plain_settle", plain, {"x"});
        row("n above 1000", "plain_settle", plain, {"1001"});
        row("a triple short", "plain_settle", plain, {"1", "m-due", "1000"});
        row("lease score not a number", "plain_settle", plain, {"1", "m-due", "soon", ""});
        row("new score nan", "plain_settle", plain, {"1", "m-due", "1000", "nan"});
        // Every triple is checked before any is written: m-due (at its score) stays.
        row("the second triple bad", "plain_settle", plain,
            {"2", "m-due", "1000", "", "m-later", "4102444800000", "later"});
        row("no ARGV", "plain_settle", plain, {});

        const QStringList registry{"dq:{orders}:workers", "dq:{orders}:worker_records"};
        const QString record = "0|5000|1|1|0|0|0|0|0|0.1.0|ack|host";
        row("mode neither beat nor leave", "heartbeat", registry,
            {"pulse", "w", "15000", "100000", record});
        row("empty name", "heartbeat", registry, {"beat", "", "15000", "100000", record});
        row("name over 200 bytes", "heartbeat", registry,
            {"beat", QString(201, 'w'), "15000", "100000", record});
        row("live for 0", "heartbeat", registry, {"beat", "w", "0", "100000", record});
        row("live for above 1 h", "heartbeat", registry,
            {"beat", "w", "3600001", "100000", record});
        row("keep for not whole", "heartbeat", registry, {"beat", "w", "15000", "1.5", record});
        row("record missing", "heartbeat", registry, {"beat", "w", "15000", "100000"});
        row("record over 1024 bytes", "heartbeat", registry,
            {"beat", "w", "15000", "100000", QString(1025, 'x')});
        row("leave with a record", "heartbeat", registry, {"leave", "w", record});
        row("no ARGV", "heartbeat", registry, {});

        row("n not a number", "import_tasks", queue, importArgv("skip", {imported("new")}, "x"));
        row("n above 1000", "import_tasks", queue, importArgv("skip", {}, "1001"));
        row("a payload missing", "import_tasks", queue,
            importArgv("skip", {imported("new")}).mid(0, 14));
        row("mode neither skip nor replace", "import_tasks", queue,
            importArgv("upsert", {imported("new")}));
        row("state active", "import_tasks", queue, importArgv("skip", {imported("new", "active")}));
        row("empty id", "import_tasks", queue, importArgv("skip", {imported("")}));
        row("due not a number", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "soon")}));
        row("due negative", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "-1")}));
        row("attempts not whole", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "1.5")}));
        row("backoff with a bar", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "0", "5000|1")}));
        row("history line not an event", "import_tasks", queue,
            importArgv("skip",
                       {imported("new", "pending", "1000", "0", "", "1000|pushed||w|\nhi")}));
        row("history event kind in capitals", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "0", "", "1000|PUSHED||w|")}));
        row("history of 101 events", "import_tasks", queue,
            importArgv("skip",
                       {imported("new", "pending", "1000", "0", "",
                                 QStringList(101, "1000|claimed|1000|w|attempt 1").join('\n'))}));
        row("tag priority out of range", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "0", "", "", "10|g")}));
        row("tag group with a space", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "0", "", "", "0|a b")}));
        row("tag without a priority", "import_tasks", queue,
            importArgv("skip", {imported("new", "pending", "1000", "0", "", "", "tenant-1")}));
        row("the second task bad", "import_tasks", queue,
            importArgv("replace", {imported("new"), imported("p", "dead", "inf")}));

        const QStringList shard{"shard"};
        row("mode neither nx nor replace", "shard_displace", shard, {"upsert", "1", "due"});
        row("n not a number", "shard_displace", shard, {"nx", "one", "due"});
        row("n above 1000", "shard_displace", shard, {"nx", "1001", "due"});
        row("an id missing", "shard_displace", shard, {"replace", "2", "due"});
        row("an id too many", "shard_displace", shard, {"replace", "1", "due", "later"});
        row("no ARGV", "shard_displace", shard, {});

        // A reshard's recycle-bin move (docs/design/bin.md, "Resharding").
        const QString entry = "1|act|1000|pending|1000|0|0|0|0|0|record";
        row("n not a number", "bin_take", queue, {"one"});
        row("n above 500", "bin_take", queue, QStringList{"501"} + many(1002));
        row("a target missing", "bin_take", queue, {"1", "later"});
        row("target past shard 63", "bin_take", queue, {"1", "later", "64"});
        row("target not whole", "bin_take", queue, {"1", "later", "1.5"});
        row("no ARGV", "bin_take", queue, {});
        row("n not a number", "bin_put", queue, {"one"});
        row("a note missing", "bin_put", queue, {"1", "later", entry});
        row("an entry that is not one", "bin_put", queue, {"1", "later", "garbage", ""});
        row("the second entry bad", "bin_put", queue,
            {"2", "later", entry, "", "due", "2|act|1000|pending|1000|0|0|0|0|0|r", ""});
        row("no ARGV", "bin_put", queue, {});
        row("n not a number", "bin_release", queue, {"one"});
        row("an id missing", "bin_release", queue, {"2", "later"});
        row("no ARGV", "bin_release", queue, {});
    }
    void badArgvIsInvalid()
    {
        QFETCH(QString, script);
        QFETCH(QStringList, keys);
        QFETCH(QStringList, argv);
        const Script* s = scriptNamed(script);
        QVERIFY2(s, qPrintable(script));

        std::vector<std::string> keyNames;
        if (keys == QStringList{"queue"} || keys == QStringList{"upgrade"} ||
            keys == QStringList{"shard"}) {
            // upgrade and the shard scripts take one more KEY than the nine of every
            // native-queue script.
            keyNames = queueKeys();
            if (keys == QStringList{"upgrade"})
                keyNames.push_back(Keys("dq", "orders").oldTaskPrefix());
            if (keys == QStringList{"shard"})
                keyNames.push_back(Keys("dq", "orders").moving());
        } else {
            for (const auto& key : keys)
                keyNames.push_back(key.toStdString());
        }
        std::vector<std::string> args;
        for (const auto& arg : argv)
            args.push_back(arg == "{token}" ? m_token.toStdString() : arg.toStdString());

        const auto digest = snapshot(m_server);
        std::string outcome;
        try {
            m_conn->evalScript(*s, keyNames, args);
            outcome = "no error: the call succeeded";
        } catch (const Error& e) {
            outcome = std::string(errorCodeName(e.code())) + ": " + e.what();
        }
        QVERIFY2(outcome.rfind("invalid-argument: INVALID", 0) == 0, outcome.c_str());
        QCOMPARE(snapshot(m_server), digest);
    }

    // The scripts that act on tasks by id or in bulk (cancel, reschedule, requeue,
    // delete_dead, purge) reply in one shape, read at one place (ScriptBatches):
    // {done, remaining, {one status per given id}}. remaining is what a repeat of the call
    // would still find (0 for a call by ids); the statuses are empty for "all" and purge.
    void idAndBulkRepliesHaveOneShape_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("moreDead");     // dead tasks added to the one of initTest
        QTest::addColumn<QStringList>("argv"); // the actor ("") is added
        QTest::addColumn<int>("done");
        QTest::addColumn<int>("remaining");
        QTest::addColumn<QStringList>("statuses");

        // initTest leaves "dead" in dead, "active" in active, "due" and "later" pending. The
        // requeue and delete_dead calls by ids leave another task in dead: still remaining 0.
        QTest::newRow("cancel by ids")
            << "cancel" << 0 << QStringList{"0", "b1", "due", "missing", "active", "dead"} << 1 << 0
            << QStringList{"done", "not_found", "active", "dead"};
        QTest::newRow("cancel forced")
            << "cancel" << 0 << QStringList{"1", "", "active"} << 1 << 0 << QStringList{"done"};
        QTest::newRow("cancel of nothing changed")
            << "cancel" << 0 << QStringList{"0", "", "missing"} << 0 << 0
            << QStringList{"not_found"};
        QTest::newRow("reschedule by ids")
            << "reschedule" << 0 << QStringList{"in", "0", "", "later", "active", "missing"} << 1
            << 0 << QStringList{"done", "active", "not_found"};
        QTest::newRow("requeue by ids")
            << "requeue" << 1 << QStringList{"ids", "1", "", "dead", "due", "missing"} << 1 << 0
            << QStringList{"done", "pending", "not_found"};
        QTest::newRow("requeue all, 3 dead, limit 2")
            << "requeue" << 2 << QStringList{"all", "2", ""} << 2 << 1 << QStringList{};
        QTest::newRow("requeue all, 1 dead, limit 10")
            << "requeue" << 0 << QStringList{"all", "10", ""} << 1 << 0 << QStringList{};
        QTest::newRow("delete_dead by ids")
            << "delete_dead" << 1 << QStringList{"ids", "1", "b2", "dead", "active", "missing"} << 1
            << 0 << QStringList{"done", "active", "not_found"};
        QTest::newRow("delete_dead all, 3 dead, limit 2")
            << "delete_dead" << 2 << QStringList{"all", "2", ""} << 2 << 1 << QStringList{};
        QTest::newRow("purge 3 of 4")
            << "purge" << 0 << QStringList{"3", "b3"} << 3 << 1 << QStringList{};
        QTest::newRow("purge all 4")
            << "purge" << 0 << QStringList{"10", ""} << 4 << 0 << QStringList{};
        QTest::newRow("restore of nothing")
            << "restore" << 0 << QStringList{"keep", "0", "", "missing"} << 0 << 0
            << QStringList{"not_found"};
    }
    void idAndBulkRepliesHaveOneShape()
    {
        QFETCH(QString, script);
        QFETCH(int, moreDead);
        QFETCH(QStringList, argv);
        QFETCH(int, done);
        QFETCH(int, remaining);
        QFETCH(QStringList, statuses);
        for (int i = 0; i < moreDead; ++i) {
            // Due before every other pending task, so the claim takes it.
            PushRequest r = request("dying", 0, "dead" + std::to_string(i));
            r.dueAtMs = 500;
            r.maxAttempts = 1;
            m_queue->push(r);
            const auto dying = m_queue->claim(1, 60'000, "w");
            QCOMPARE(dying.tasks.size(), size_t(1));
            QVERIFY(m_queue->nack(dying.tasks[0].id, dying.tasks[0].token, "died").dead);
        }
        const Script* s = scriptNamed(script);
        QVERIFY2(s, qPrintable(script));
        std::vector<std::string> args;
        for (const auto& arg : argv)
            args.push_back(arg.toStdString());
        args.push_back(""); // no actor

        const Reply reply = m_conn->evalScript(*s, queueKeys(), args);
        QVERIFY(reply.isArray());
        QCOMPARE(reply.elements.size(), size_t(3));
        QCOMPARE(reply.elements[0].type, Reply::Type::Integer);
        QCOMPARE(reply.elements[1].type, Reply::Type::Integer);
        QVERIFY(reply.elements[2].isArray());
        QCOMPARE(reply.elements[0].integer, static_cast<long long>(done));
        QCOMPARE(reply.elements[1].integer, static_cast<long long>(remaining));
        QStringList got;
        for (const Reply& word : reply.elements[2].elements)
            got << QString::fromStdString(word.toString());
        QCOMPARE(got, statuses);
    }

private:
    QString m_token; // the active task's lease
};

QTEST_GUILESS_MAIN(TestScriptContracts)
#include "tst_scriptcontracts.moc"
