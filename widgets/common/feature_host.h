// SPDX-License-Identifier: Apache-2.0
// FeatureHost: the one interface a feature library (banks/, trace/, run/, kernel/) has to the
// window that composes it. A feature installs itself through it (its docks, its menu, its
// toolbar button) and reads the shared state from it (the document, the active layout's
// evaluation); what it needs from another feature goes over the FeatureBus. The window
// implements it; no feature includes window/ or a sibling feature, which the build checks
// (cmake/check_widget_includes.cmake).
#pragma once

class QMainWindow;
class QMenu;
class QToolBar;

namespace tsw {

class DocumentModel;
class FeatureBus;
class LayoutEvaluator;

class FeatureHost {
public:
    virtual ~FeatureHost() = default;
    // The top-level window: the parent of a feature's docks and dialogs, and its status bar.
    virtual QMainWindow* hostWindow() = 0;
    // The open project: its layouts, their names and texts, the active one. Panels read names
    // from here when they show them, never from copies of their own.
    virtual DocumentModel* document() const = 0;
    // The active layout's evaluation (requested / finished), shared by every panel.
    virtual LayoutEvaluator* evaluator() const = 0;
    virtual FeatureBus* bus() const = 0;
    // View ▸ Panels (lists every dock), File (a feature's import or export command goes after
    // Export View) and the main toolbar.
    virtual QMenu* panelsMenu() const = 0;
    virtual QMenu* fileMenu() const = 0;
    virtual QToolBar* mainToolBar() const = 0;
};

} // namespace tsw
