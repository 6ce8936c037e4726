#include "transport/sigpipeblock.h"

#include <cerrno>
#include <ctime>
#include <pthread.h>

namespace delayq {

SigpipeBlock::SigpipeBlock()
{
    sigemptyset(&m_set);
    sigaddset(&m_set, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    m_wasPending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
}

SigpipeBlock::~SigpipeBlock()
{
    const int savedErrno = errno;
    if (!m_wasPending) {
        sigset_t pending;
        sigemptyset(&pending);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE) == 1) {
            const timespec zero{};
            while (sigtimedwait(&m_set, nullptr, &zero) == -1 && errno == EINTR) {
            }
        }
    }
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    errno = savedErrno;
}

} // namespace delayq
