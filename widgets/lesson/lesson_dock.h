// SPDX-License-Identifier: Apache-2.0
// The lesson feature installed into the host's window: the "Lesson steps" dock (hidden until
// opened from View > Panels or the Lesson menu) and a Lesson menu with the panel's actions.
#pragma once

namespace tsw {

class FeatureHost;
class LessonPanel;

LessonPanel* installLessonDock(FeatureHost* host);

} // namespace tsw
