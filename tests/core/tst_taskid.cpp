#include <delayq/taskid.h>

#include <QDateTime>
#include <QTest>

#include <set>

using namespace delayq;

namespace {

const std::string kAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The 48-bit ms time in the first 10 characters of a ULID.
long long timeOf(const std::string& id)
{
    long long ms = 0;
    for (int i = 0; i < 10; ++i)
        ms = ms * 32 + static_cast<long long>(kAlphabet.find(id[static_cast<size_t>(i)]));
    return ms;
}

} // namespace

// Generated ids: ULID-shaped and time-sortable, so equal due times keep push order.
class TestTaskId : public QObject
{
    Q_OBJECT

private slots:
    void shape()
    {
        const long long before = QDateTime::currentMSecsSinceEpoch();
        const std::string id = generateTaskId();
        const long long after = QDateTime::currentMSecsSinceEpoch();
        QCOMPARE(id.size(), size_t(26));
        QVERIFY2(id.find_first_not_of(kAlphabet) == std::string::npos, id.c_str());
        QVERIFY(id[0] <= '7'); // 128 bits in 130: the top digit holds 3 bits
        QVERIFY2(timeOf(id) >= before && timeOf(id) <= after, id.c_str());
    }

    void sortsInCreationOrder()
    {
        std::vector<std::string> ids;
        for (int i = 0; i < 50'000; ++i)
            ids.push_back(generateTaskId());
        for (size_t i = 1; i < ids.size(); ++i)
            QVERIFY2(ids[i - 1] < ids[i], (ids[i - 1] + " !< " + ids[i]).c_str());
        QCOMPARE(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
    }

    void randomTokens()
    {
        std::set<std::string> tokens;
        for (int i = 0; i < 1000; ++i) {
            const std::string t = randomToken(8);
            QCOMPARE(t.size(), size_t(16));
            QVERIFY(t.find_first_not_of("0123456789abcdef") == std::string::npos);
            tokens.insert(t);
        }
        QCOMPARE(tokens.size(), size_t(1000));
        QCOMPARE(randomToken(1).size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestTaskId)
#include "tst_taskid.moc"
