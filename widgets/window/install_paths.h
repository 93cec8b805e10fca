// SPDX-License-Identifier: Apache-2.0
// Where the app finds its run-time data: a source checkout only while it runs from that
// checkout's build tree; an installed app uses the copies embedded in its binary
// (resources/CMakeLists.txt), never the source tree it was built from.
#pragma once

#include <QString>

namespace tsw {

// True when this executable lies under the build directory it was configured in.
bool runningFromBuildTree();

// The source checkout when running from its build tree, else empty.
QString sourceTreeDir();

// The samples embedded in the binary (":/tilescope/samples").
QString embeddedSamplesDir();

// A directory a file dialog can start in: `dir` unless it is an embedded resource path.
QString dialogStartDir(const QString& dir);

} // namespace tsw
