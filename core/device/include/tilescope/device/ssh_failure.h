// SPDX-License-Identifier: Apache-2.0
// What ssh's own message says went wrong when it exits 255 (it uses 255 for every failure of its
// own, from a host name that does not resolve to a connection that dropped mid-run), so the Run
// panel says "could not resolve host" rather than "lost connection" when no connection was made.
#pragma once

#include <string>

namespace ts {

// The sentence for the user, from ssh's stderr; "" when stderr names none of the failures known
// here (the caller keeps its general wording).
std::string sshFailureReason(const std::string& sshStderr, const std::string& host);

} // namespace ts
