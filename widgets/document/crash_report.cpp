// SPDX-License-Identifier: Apache-2.0
#include "document/crash_report.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <execinfo.h>
#include <fcntl.h>
#include <unistd.h>

namespace tsw::crash {

namespace {

// Everything the handler reads, prepared on the GUI thread. Plain arrays: the handler may not
// touch anything that allocates or locks.
char gPath[4096];
char gHeader[2048];
std::array<std::array<char, kActionBytes>, kActionSlots> gActions{};
std::atomic<unsigned> gNextAction{0}; // total actions recorded (slot = n % kActionSlots)
std::atomic<bool> gInstalled{false};
constexpr int kSignals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};

void put(int fd, const char* s) {
    std::size_t n = std::strlen(s);
    while (n > 0) {
        const ssize_t w = ::write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= std::size_t(w);
    }
}

void putNumber(int fd, long v) {
    char buf[24];
    int i = sizeof buf - 1;
    buf[i] = '\0';
    const bool neg = v < 0;
    unsigned long u = neg ? 0UL - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
    do {
        buf[--i] = char('0' + u % 10);
        u /= 10;
    } while (u && i > 1);
    if (neg) buf[--i] = '-';
    put(fd, buf + i);
}

const char* signalName(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV (invalid memory access)";
    case SIGABRT:
        return "SIGABRT (abort)";
    case SIGBUS:
        return "SIGBUS (bus error)";
    case SIGFPE:
        return "SIGFPE (arithmetic error)";
    case SIGILL:
        return "SIGILL (illegal instruction)";
    }
    return "a fatal signal";
}

void onFatalSignal(int sig) {
    // Whatever happens below, the signal's own action comes next (SA_RESETHAND restored it).
    const int fd = ::open(gPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
        put(fd, gHeader);
        put(fd, "signal: ");
        putNumber(fd, sig);
        put(fd, " ");
        put(fd, signalName(sig));
        put(fd, "\n\nlast actions (oldest first):\n");
        const unsigned n = gNextAction.load(std::memory_order_relaxed);
        const unsigned first = n > unsigned(kActionSlots) ? n - kActionSlots : 0;
        if (n == 0) put(fd, "  (none recorded)\n");
        for (unsigned k = first; k < n; ++k) {
            put(fd, "  ");
            put(fd, gActions[k % kActionSlots].data());
            put(fd, "\n");
        }
        put(fd, "\nbacktrace:\n");
        void* frames[64];
        const int depth = ::backtrace(frames, 64);
        ::backtrace_symbols_fd(frames, depth, fd);
        put(fd, "\n(end of report)\n");
        ::close(fd);
    }
    ::raise(sig); // delivered with the default action once this handler returns
}

} // namespace

bool install(const QString& directory, const QString& version) {
    if (!QDir().mkpath(directory)) return false;
    const QByteArray path =
        QFile::encodeName(QDir(directory).filePath(QStringLiteral("crash-%1-%2.txt")
                                                       .arg(::getpid())
                                                       .arg(QDateTime::currentMSecsSinceEpoch())));
    const QByteArray header =
        QStringLiteral("Tilescope crash report\nversion: %1\nstarted: %2\npid: %3\nbinary: %4 "
                       "(a frame '%4(+0xOFFSET)' reads as source with: addr2line -Cfipe %4 "
                       "0xOFFSET)\n")
            .arg(version, QDateTime::currentDateTime().toString(Qt::ISODate))
            .arg(::getpid())
            .arg(QCoreApplication::applicationFilePath())
            .toUtf8();
    std::strncpy(gPath, path.constData(), sizeof gPath - 1);
    std::strncpy(gHeader, header.constData(), sizeof gHeader - 1);
    if (gInstalled.exchange(true)) return true;
    // The first backtrace() loads libgcc's unwinder (an allocation): done here, not in the
    // handler.
    void* warm[4];
    ::backtrace(warm, 4);
    // A stack of its own: a stack overflow's SIGSEGV has no stack left to run a handler on.
    static std::array<char, 64 * 1024> altStack;
    stack_t ss{};
    ss.ss_sp = altStack.data();
    ss.ss_size = altStack.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = onFatalSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
    for (int s : kSignals)
        ::sigaction(s, &sa, nullptr);
    return true;
}

QString reportPath() {
    return gInstalled ? QFile::decodeName(gPath) : QString();
}

void noteAction(const QString& what) {
    const unsigned n = gNextAction.load(std::memory_order_relaxed);
    std::array<char, kActionBytes>& slot = gActions[n % kActionSlots];
    QByteArray line = QDateTime::currentDateTime().toString(QStringLiteral("hh:mm:ss ")).toUtf8() +
                      what.simplified().toUtf8();
    if (line.size() >= kActionBytes) line.truncate(kActionBytes - 1); // may cut a UTF-8 char
    std::memcpy(slot.data(), line.constData(), std::size_t(line.size()));
    slot[std::size_t(line.size())] = '\0';
    gNextAction.store(n + 1, std::memory_order_release);
}

QStringList actions() {
    QStringList out;
    const unsigned n = gNextAction.load(std::memory_order_acquire);
    for (unsigned k = n > unsigned(kActionSlots) ? n - kActionSlots : 0; k < n; ++k)
        out << QString::fromUtf8(gActions[k % kActionSlots].data());
    return out;
}

QList<Report> pending(const QString& directory) {
    QList<Report> out;
    const QString mine = reportPath();
    const QDir dir(directory);
    for (const QFileInfo& f :
         dir.entryInfoList({QStringLiteral("crash-*.txt")}, QDir::Files, QDir::Time)) {
        if (f.absoluteFilePath() == QFileInfo(mine).absoluteFilePath()) continue;
        QFile file(f.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly)) continue;
        out.push_back(
            {f.absoluteFilePath(), f.lastModified(), QString::fromUtf8(file.read(1 << 20))});
    }
    return out;
}

void discard(const Report& r) {
    QFile::remove(r.file);
}

} // namespace tsw::crash
