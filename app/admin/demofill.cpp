#include "demofill.h"

#include <delayq/connection.h>
#include <delayq/error.h>
#include <delayq/plainqueue.h>
#include <delayq/queue.h>

#include <QCryptographicHash>

#include <algorithm>

namespace {

// Eight hex digits that look like the ids home-grown queues put in their messages.
std::string demoId(int i)
{
    return QCryptographicHash::hash(QByteArray::number(i), QCryptographicHash::Sha1)
        .toHex()
        .left(8)
        .toStdString();
}

constexpr int kBatch = 10000;

} // namespace

QString DemoFill::fill(const QString& url)
{
    try {
        fillQueue(url.toStdString(), "emails", 400, 2LL * 3600 * 1000, false);
        fillQueue(url.toStdString(), "demo", 4000, 6LL * 3600 * 1000, true);
        return {};
    } catch (const delayq::Error& e) {
        return QString::fromUtf8(e.what());
    }
}

void DemoFill::fillQueue(const std::string& url, const std::string& queue, long long count,
                         long long spreadMs, bool lifecycle)
{
    delayq::Connection c(delayq::ConnectionOptions::fromUrl(url));
    delayq::Queue q(c, queue);
    const long long now = c.serverNowMs();
    static const char* kinds[] = {"send-reminder", "charge-card", "expire-cart", "retry-webhook",
                                  "close-order"};
    // A few overdue tasks so the timeline shows its overdue marking.
    const long long start = now - std::min<long long>(spreadMs / 50, 15 * 60000);
    std::vector<delayq::PushRequest> requests;
    requests.reserve(static_cast<size_t>(std::min<long long>(count, kBatch)));
    for (long long i = 0; i < count; ++i) {
        delayq::PushRequest r;
        // Denser soon than later, like real reminder traffic.
        const double x = static_cast<double>(i) / static_cast<double>(count);
        r.dueAtMs = start + static_cast<long long>(x * x * static_cast<double>(spreadMs));
        r.payload = "{\"order\":" + std::to_string(100000 + i) + ",\"action\":\"" + kinds[i % 5] +
                    "\",\"customer\":\"c" + std::to_string(i % 997) + "\"}";
        requests.push_back(std::move(r));
        if (static_cast<int>(requests.size()) == kBatch || i + 1 == count) {
            q.pushBatch(requests);
            requests.clear();
        }
    }
    if (!lifecycle)
        return;
    // Due before everything else, so the claims below take exactly these.
    std::vector<delayq::PushRequest> early;
    for (int i = 0; i < 12; ++i) {
        delayq::PushRequest r;
        r.id = "webhook-" + std::to_string(i + 1);
        r.dueAtMs = start - 3600000 + i;
        r.maxAttempts = 1;
        r.payload = "{\"url\":\"https://partner.example/hook\",\"event\":\"order.paid\","
                    "\"order\":" +
                    std::to_string(90000 + i) + "}";
        early.push_back(std::move(r));
    }
    q.pushBatch(early);
    auto failed = q.claim(9, 60000, "demo-worker-1");
    for (const auto& t : failed.tasks)
        q.nack(t.id, t.token, "HTTP 503 from partner.example after 30s");
    // Leased for an hour: they stay in the active tab while the demo runs.
    q.claim(3, 3600000, "demo-worker-2");
    // A plain sorted set as the usual home-grown delay queues write it (member = the
    // message, score = due ms), for the "Plain sorted sets" group.
    delayq::PlainQueue plain(c, "orders:delay-queue", delayq::PlainQueue::ScoreUnit::Milliseconds);
    for (int i = 0; i < 300; ++i)
        plain.push({"{\"id\":\"" + demoId(i) + "-demo\",\"msg\":\"close unpaid order " +
                    std::to_string(5000 + i) + "\"}"},
                   now + (i - 10) * 60000LL);
}
