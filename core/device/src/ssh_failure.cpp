// SPDX-License-Identifier: Apache-2.0
// ssh's exit-255 messages (OpenSSH's wording, matched without regard to case) to a sentence.
#include "tilescope/device/ssh_failure.h"

#include <algorithm>
#include <cctype>

namespace ts {

namespace {

bool has(const std::string& lower, const char* what) {
    return lower.find(what) != std::string::npos;
}

} // namespace

std::string sshFailureReason(const std::string& sshStderr, const std::string& host) {
    std::string s = sshStderr;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    const std::string h = "'" + host + "'";
    if (has(s, "could not resolve hostname"))
        return "Could not resolve host " + h +
               ": ssh found no address for that name, so no connection was made (ssh exit 255). "
               "Check the host in Run ▸ Settings (a typo, a name only your ~/.ssh/config or VPN "
               "knows).";
    if (has(s, "connection refused"))
        return "The remote machine " + h +
               " refused the connection (ssh exit 255): nothing listens on its SSH port. Check "
               "the port in Run ▸ Settings and that sshd runs there.";
    if (has(s, "connection timed out") || has(s, "operation timed out"))
        return "Could not reach " + h +
               " within the connect timeout (ssh exit 255): the machine is down, unreachable or "
               "behind a firewall.";
    if (has(s, "no route to host") || has(s, "network is unreachable"))
        return "No route to " + h + " (ssh exit 255): check the network or VPN.";
    if (has(s, "permission denied"))
        return "ssh reached " + h +
               " but could not log in (ssh exit 255): no key it accepts (BatchMode: no password "
               "prompts). Check the user in Run ▸ Settings and your key.";
    if (has(s, "host key verification failed"))
        return "ssh refused " + h +
               ": its host key is not known or changed (ssh exit 255). Connect once by hand to "
               "check and accept it.";
    return {};
}

} // namespace ts
