// SPDX-License-Identifier: Apache-2.0
// Runs the real tilescope-cli binary for the CLI-contract tests: stdout, stderr and exit code.
#pragma once

#include <array>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tstest {

struct CliResult {
    int code;
    std::string out, err;
};

// Single-quotes `s` for the shell.
inline std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline CliResult cli(const std::string& args) {
    // One stderr file per call and process: ctest runs the tests in parallel processes.
    static int calls = 0;
    std::string errFile = ::testing::TempDir() + "/cli_err_" + std::to_string(::getpid()) + "_" +
                          std::to_string(++calls) + ".txt";
    std::string cmd = "timeout 60 " + std::string(TILESCOPE_CLI) + " " + args + " 2>" + errFile;
    CliResult r;
    FILE* p = popen(cmd.c_str(), "r");
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        r.out.append(buf.data(), n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE* e = fopen(errFile.c_str(), "r");
    while (e && (n = fread(buf.data(), 1, buf.size(), e)) > 0)
        r.err.append(buf.data(), n);
    if (e) fclose(e);
    std::remove(errFile.c_str());
    return r;
}

} // namespace tstest
