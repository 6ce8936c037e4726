#include "faultproxy.h"

#include <arpa/inet.h>
#include <cerrno>
#include <deque>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

constexpr auto kTick = 20ms; // the longest any loop waits before it looks at the settings again

void setNonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int connectTo(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    setNonBlocking(fd);
    return fd;
}

// Closes with SO_LINGER 0: the peer sees a reset, not an orderly end.
void resetAndClose(int fd)
{
    const linger hard{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    ::close(fd);
}

struct Chunk
{
    Clock::time_point due;
    std::string bytes;
    bool resetAfter = false; // the link is reset once this chunk is delivered
};

// One direction of a link: what was read from one end and waits for its time at the other.
struct Direction
{
    int from = -1;
    int to = -1;
    std::deque<Chunk> queue;
    bool fromClosed = false;    // read end saw EOF: pass it on once the queue is empty
    Clock::time_point freeAt{}; // the bandwidth limit's next free moment
};

} // namespace

struct FaultProxy::Link
{
    int client = -1;
    int server = -1;
    std::atomic<bool> done{false};
    std::thread thread;
};

FaultProxy::FaultProxy(int targetPort) : m_targetPort(targetPort)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::listen(m_listen, 64) != 0 ||
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        throw std::runtime_error("FaultProxy: cannot listen on loopback");
    m_port = ntohs(addr.sin_port);
    m_acceptor = std::thread([this] { acceptLoop(); });
}

FaultProxy::~FaultProxy()
{
    m_stopping = true;
    m_acceptor.join();
    ::close(m_listen);
}

std::string FaultProxy::url() const
{
    return "redis://127.0.0.1:" + std::to_string(m_port);
}

void FaultProxy::setLatency(std::chrono::milliseconds mean, std::chrono::milliseconds jitter)
{
    m_meanUs = std::chrono::microseconds(mean).count();
    m_jitterUs = std::chrono::microseconds(jitter).count();
}

void FaultProxy::setBandwidth(long long bytesPerSecond)
{
    m_bytesPerSecond = bytesPerSecond;
}

void FaultProxy::setResetOneIn(int n)
{
    m_resetOneIn = n;
}

void FaultProxy::blackhole()
{
    m_blackhole = true;
}

void FaultProxy::heal()
{
    m_blackhole = false;
}

Clock::duration FaultProxy::nextDelay()
{
    const long long mean = m_meanUs;
    const long long jitter = m_jitterUs;
    if (mean == 0 && jitter == 0)
        return {};
    std::lock_guard<std::mutex> hold(m_randomLock);
    std::uniform_int_distribution<long long> spread(-jitter, jitter);
    return std::chrono::microseconds(std::max(0LL, mean + spread(m_random)));
}

bool FaultProxy::resetNow(bool& afterForwarding)
{
    const int n = m_resetOneIn;
    if (n <= 0)
        return false;
    std::lock_guard<std::mutex> hold(m_randomLock);
    if (std::uniform_int_distribution<int>(1, n)(m_random) != 1)
        return false;
    afterForwarding = std::uniform_int_distribution<int>(0, 1)(m_random) == 1;
    return true;
}

// Accepts, and joins the threads of links that ended, so a long run with many resets holds
// only the links still open.
void FaultProxy::acceptLoop()
{
    std::vector<std::shared_ptr<Link>> links;
    while (!m_stopping) {
        pollfd p{m_listen, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(kTick.count())) == 1) {
            const int client = ::accept(m_listen, nullptr, nullptr);
            const int server = client >= 0 ? connectTo(m_targetPort) : -1;
            if (client >= 0 && server < 0)
                resetAndClose(client);
            if (client >= 0 && server >= 0) {
                setNonBlocking(client);
                ++m_connections;
                auto link = std::make_shared<Link>();
                link->client = client;
                link->server = server;
                link->thread = std::thread([this, link] { pump(link); });
                links.push_back(link);
            }
        }
        for (auto it = links.begin(); it != links.end();) {
            if ((*it)->done) {
                (*it)->thread.join();
                it = links.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (auto& link : links)
        link->thread.join();
}

// One link's whole life on one thread: read both ends as bytes come, deliver each chunk at
// its due time unless a blackhole holds it, end the link on EOF, error, reset or stop.
// Both ends are non-blocking: a write the peer cannot take yet is tried again next turn.
void FaultProxy::pump(const std::shared_ptr<Link>& link)
{
    Direction up{link->client, link->server, {}};
    Direction down{link->server, link->client, {}};
    bool reset = false;
    char buffer[65536];
    const auto readInto = [&](Direction& d, bool upstream) {
        const ssize_t n = ::read(d.from, buffer, sizeof buffer);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
            d.fromClosed = true;
            return;
        }
        if (n < 0)
            return;
        Chunk c{Clock::now() + nextDelay(), std::string(buffer, static_cast<size_t>(n))};
        if (!d.queue.empty() && c.due < d.queue.back().due)
            c.due = d.queue.back().due; // bytes stay in order whatever the jitter says
        bool after = false;
        if (upstream && resetNow(after)) {
            if (!after) {
                reset = true; // dropped: the server never sees this command
                return;
            }
            c.resetAfter = true;
        }
        d.queue.push_back(std::move(c));
    };
    const auto deliver = [&](Direction& d) {
        const auto now = Clock::now();
        while (!m_blackhole && !d.queue.empty() && d.queue.front().due <= now && d.freeAt <= now) {
            Chunk& c = d.queue.front();
            const long long bps = m_bytesPerSecond;
            const size_t slice =
                bps > 0 ? std::max<size_t>(1, static_cast<size_t>(bps / 50)) : c.bytes.size();
            const ssize_t n = ::write(d.to, c.bytes.data(), std::min(slice, c.bytes.size()));
            if (n < 0)
                return errno == EAGAIN || errno == EINTR;
            if (bps > 0)
                d.freeAt = now + std::chrono::microseconds(n * 1000000LL / bps);
            c.bytes.erase(0, static_cast<size_t>(n));
            if (!c.bytes.empty())
                return true;
            const bool resetAfter = c.resetAfter;
            d.queue.pop_front();
            if (resetAfter) {
                reset = true;
                return true;
            }
        }
        if (d.fromClosed && d.queue.empty())
            return false; // pass the EOF on by ending the link
        return true;
    };
    while (!m_stopping && !reset) {
        // A closed end is not polled again (it would answer at once, forever); 5 ms keeps the
        // latency's due times to within a few ms.
        pollfd p[2] = {{link->client, static_cast<short>(up.fromClosed ? 0 : POLLIN), 0},
                       {link->server, static_cast<short>(down.fromClosed ? 0 : POLLIN), 0}};
        ::poll(p, 2, 5);
        if (!up.fromClosed && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
            readInto(up, true);
        if (!down.fromClosed && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
            readInto(down, false);
        if (!deliver(up) || !deliver(down))
            break;
    }
    if (reset)
        ++m_resets;
    resetAndClose(link->client);
    resetAndClose(link->server);
    link->done = true;
}
