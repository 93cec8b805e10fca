// SPDX-License-Identifier: Apache-2.0
#include "tilescope/device/subprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ts {

std::string findOnPath(const std::string& name) {
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    std::string p = path ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t end = p.find(':', start);
        if (end == std::string::npos) end = p.size();
        std::string dir = p.substr(start, end - start);
        if (dir.empty()) dir = ".";
        std::string full = dir + "/" + name;
        struct stat st;
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0)
            return full;
        start = end + 1;
    }
    return {};
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& input,
                         double timeout_s, const std::vector<std::string>& extra_env,
                         const std::atomic<bool>* cancel) {
    ProcessResult r;
    if (argv.empty()) {
        r.error = "empty command";
        return r;
    }
    std::string exe = findOnPath(argv[0]);
    if (exe.empty()) {
        r.error = argv[0] + ": not found";
        return r;
    }
    int in_p[2], out_p[2], err_p[2];
    if (pipe2(in_p, O_CLOEXEC) || pipe2(out_p, O_CLOEXEC) || pipe2(err_p, O_CLOEXEC)) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    std::vector<std::string> env_store;
    for (char** e = environ; e && *e; ++e)
        env_store.emplace_back(*e);
    for (const auto& e : extra_env)
        env_store.push_back(e);
    std::vector<char*> envp, args;
    for (auto& e : env_store)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_copy = argv;
    for (auto& a : argv_copy)
        args.push_back(a.data());
    args.push_back(nullptr);

    if (cancel && cancel->load()) {
        r.cancelled = true;
        r.error = "cancelled";
        for (int fd : {in_p[0], in_p[1], out_p[0], out_p[1], err_p[0], err_p[1]})
            close(fd);
        return r;
    }
    pid_t pid = fork();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in_p[0], 0);
        dup2(out_p[1], 1);
        dup2(err_p[1], 2);
        execve(exe.c_str(), args.data(), envp.data());
        const char msg[] = "exec failed\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(127);
    }
    setpgid(pid, pid);
    r.started = true;
    close(in_p[0]);
    close(out_p[1]);
    close(err_p[1]);
    signal(SIGPIPE, SIG_IGN);
    fcntl(in_p[1], F_SETFL, O_NONBLOCK);
    std::size_t written = 0;
    if (input.empty()) {
        close(in_p[1]);
        in_p[1] = -1;
    }
    auto t0 = std::chrono::steady_clock::now();
    bool out_open = true, err_open = true;
    char buf[65536];
    while (out_open || err_open || in_p[1] >= 0) {
        pollfd fds[3];
        int n = 0;
        int io = -1, ie = -1, ii = -1;
        if (out_open) fds[io = n++] = {out_p[0], POLLIN, 0};
        if (err_open) fds[ie = n++] = {err_p[0], POLLIN, 0};
        if (in_p[1] >= 0) fds[ii = n++] = {in_p[1], POLLOUT, 0};
        int wait_ms = 200;
        int rc = poll(fds, n, wait_ms);
        if (rc < 0 && errno != EINTR) break;
        if (io >= 0 && (fds[io].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t k = read(out_p[0], buf, sizeof buf);
            if (k > 0)
                r.out.append(buf, k);
            else
                out_open = false;
        }
        if (ie >= 0 && (fds[ie].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t k = read(err_p[0], buf, sizeof buf);
            if (k > 0)
                r.err.append(buf, k);
            else
                err_open = false;
        }
        if (ii >= 0 && (fds[ii].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t k = write(in_p[1], input.data() + written, input.size() - written);
            if (k > 0) written += std::size_t(k);
            if (k < 0 && errno != EAGAIN) written = input.size();
            if (written >= input.size()) {
                close(in_p[1]);
                in_p[1] = -1;
            }
        }
        if (cancel && cancel->load()) {
            r.cancelled = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            break;
        }
        if (timeout_s > 0) {
            double el =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (el > timeout_s) {
                r.timed_out = true;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                break;
            }
        }
    }
    if (in_p[1] >= 0) close(in_p[1]);
    close(out_p[0]);
    close(err_p[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.exit_code = 128 + WTERMSIG(status);
    if (r.timed_out) r.error = "timed out after " + std::to_string(timeout_s) + " s";
    if (r.cancelled) r.error = "cancelled";
    return r;
}

} // namespace ts
