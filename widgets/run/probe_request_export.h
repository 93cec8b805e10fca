// SPDX-License-Identifier: Apache-2.0
// Run ▸ Export Probe Request… (and the Run panel's button): for a machine without a GPU, or a
// GPU box with no display, the request the Run button would send, written to a file, byte for
// byte what `tilescope-cli probe-request` writes (both call ts::probeRequestFor). The panel then
// says how the result comes back: tilescope-probe on the GPU machine, File ▸ Import Measurements
// here.
#pragma once

#include <QString>

namespace tsw {

struct RunSettings;
struct RunSpec;

// Writes the request for `spec` to `path` (atomically); false and *error (what is wrong with
// the layout or the file) otherwise.
bool writeProbeRequest(const RunSpec& spec, const RunSettings& settings, const QString& path,
                       QString* error);

// What to do with the written request, for the panel's log and status.
QString probeRequestNextSteps(const QString& path);

} // namespace tsw
