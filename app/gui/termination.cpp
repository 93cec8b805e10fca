// SPDX-License-Identifier: Apache-2.0
#include "termination.h"

#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace tsapp {

namespace {

int wakeFds[2] = {-1, -1}; // [0] read by the event loop, [1] written by the handler

void onSigterm(int) {
    const int saved = errno; // the interrupted code may be about to read errno
    const char byte = 1;
    // Non-blocking: with the pipe full, a wake-up is already pending and this one is not needed.
    [[maybe_unused]] const ssize_t n = ::write(wakeFds[1], &byte, 1);
    errno = saved;
}

} // namespace

bool onTerminationSignal(QObject* parent, std::function<void()> onTerminate, QString* error) {
    if (wakeFds[0] < 0 && ::pipe2(wakeFds, O_CLOEXEC | O_NONBLOCK) != 0) {
        *error = QStringLiteral("cannot handle SIGTERM (pipe: %1); it will end Tilescope as a "
                                "crash would")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        wakeFds[0] = wakeFds[1] = -1;
        return false;
    }
    auto* notifier = new QSocketNotifier(wakeFds[0], QSocketNotifier::Read, parent);
    QObject::connect(notifier, &QSocketNotifier::activated, parent,
                     [onTerminate = std::move(onTerminate)] {
                         char buf[64];
                         while (::read(wakeFds[0], buf, sizeof buf) > 0) {
                         }
                         onTerminate();
                     });
    struct sigaction sa {};
    sa.sa_handler = onSigterm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; // system calls the signal lands in go on rather than fail with EINTR
    if (::sigaction(SIGTERM, &sa, nullptr) != 0) {
        *error = QStringLiteral("cannot handle SIGTERM (sigaction: %1); it will end Tilescope as "
                                "a crash would")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        delete notifier;
        return false;
    }
    return true;
}

} // namespace tsapp
