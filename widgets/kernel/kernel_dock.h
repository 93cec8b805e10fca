// SPDX-License-Identifier: Apache-2.0
// The Kernel panel's dock in the host's window (View ▸ Panels); its "open this layout" offers the
// buffer's layout to the project over the FeatureBus.
#pragma once

namespace tsw {

class FeatureHost;
class KernelPanel;

KernelPanel* installKernelDock(FeatureHost* host);

} // namespace tsw
