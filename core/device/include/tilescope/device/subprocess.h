// SPDX-License-Identifier: Apache-2.0
// Child processes without a shell: argument vectors, stdin text, captured output, a timeout
// after which the child's process group is killed. POSIX only.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace ts {

struct ProcessResult {
    bool started = false;   // false: fork/exec failed (error says why)
    bool timed_out = false; // killed after timeout_s
    bool cancelled = false; // killed because *cancel became true
    int exit_code = -1;     // exit status, or 128 + signal
    std::string out, err, error;
};

// Runs argv[0] (looked up on PATH when it has no '/'), feeding `input` on stdin.
// timeout_s <= 0 waits forever. Extra environment entries ("NAME=value") are added. When `cancel`
// is given and becomes true (another thread's Cancel), the child's process group is killed within
// about 200 ms; a cancel already set starts nothing.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& input = {},
                         double timeout_s = 0, const std::vector<std::string>& extra_env = {},
                         const std::atomic<bool>* cancel = nullptr);

// Full path of an executable found on PATH, or empty.
std::string findOnPath(const std::string& name);

} // namespace ts
