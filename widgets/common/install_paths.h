// SPDX-License-Identifier: Apache-2.0
// Where the app finds its run-time data: a source checkout only while it runs from that
// checkout's build tree; an installed app uses the samples installed beside it
// (<prefix>/share/tilescope/samples), else the copies embedded in its binary
// (resources/CMakeLists.txt), never the source tree it was built from.
#pragma once

#include <QString>

namespace tsw {

// True when this executable lies under a build directory (one holding the marker file CMake
// writes there, which names the source checkout).
bool runningFromBuildTree();

// The source checkout when running from its build tree, else empty.
QString sourceTreeDir();

// The samples installed with the program (<bindir>/../share/tilescope/samples), if there.
QString installedSamplesDir();

// The samples embedded in the binary (":/tilescope/samples").
QString embeddedSamplesDir();

// A directory a file dialog can start in: `dir` unless it is an embedded resource path.
QString dialogStartDir(const QString& dir);

} // namespace tsw
