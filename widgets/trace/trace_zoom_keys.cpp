// SPDX-License-Identifier: Apache-2.0
// TraceViewer's zoom keys. The window's View > Zoom actions (Ctrl+0, Ctrl++, Ctrl+-) are window
// shortcuts, and Qt counts a floating dock as part of its main window, so those keys zoomed the
// main grid behind a floating Inference Trace. While focus is in this panel the keys are taken
// here (a ShortcutOverride accepted) and zoom the grids shown: both sides of a comparison (they
// are kept in step) or the single layout.
#include "trace/trace_viewer.h"

#include <QKeyEvent>
#include <QStackedWidget>

namespace tsw {

namespace {

enum class ZoomKey { None, In, Out, Fit };

ZoomKey zoomKeyOf(const QKeyEvent* k) {
    if (!(k->modifiers() & Qt::ControlModifier)) return ZoomKey::None;
    switch (k->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        return ZoomKey::In;
    case Qt::Key_Minus:
        return ZoomKey::Out;
    case Qt::Key_0:
        return ZoomKey::Fit;
    default:
        return ZoomKey::None;
    }
}

} // namespace

bool TraceViewer::event(QEvent* e) {
    if (e->type() == QEvent::ShortcutOverride &&
        zoomKeyOf(static_cast<QKeyEvent*>(e)) != ZoomKey::None && pages_->currentIndex() != 0 &&
        pages_->currentIndex() != 3) {
        e->accept();
        return true;
    }
    return QWidget::event(e);
}

void TraceViewer::keyPressEvent(QKeyEvent* e) {
    const ZoomKey z = zoomKeyOf(e);
    GridView* view = pages_->currentIndex() == 2   ? comparison_->left()
                     : pages_->currentIndex() == 1 ? single_
                                                   : nullptr;
    if (z == ZoomKey::None || !view) {
        QWidget::keyPressEvent(e);
        return;
    }
    if (z == ZoomKey::In) view->zoomIn();
    if (z == ZoomKey::Out) view->zoomOut();
    if (z == ZoomKey::Fit) view->zoomToFit();
    e->accept();
}

} // namespace tsw
