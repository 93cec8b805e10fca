// SPDX-License-Identifier: Apache-2.0
// `tilescope --bench`'s first step: the first evaluation of a large fragment in a fresh process,
// stage by stage, then the same text again, as a window meets it (its first open and a re-open).
#pragma once

namespace tsapp {

// Prints the two opens; returns 0, or 1 when the text does not evaluate.
int benchFirstOpen();

} // namespace tsapp
