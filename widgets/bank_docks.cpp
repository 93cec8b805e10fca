// BankDocks (see bank_docks.h).
#include "bank_docks.h"

#include "bank_panel.h"
#include "bank_ub_panel.h"
#include "dock_sizing.h"
#include "evaluator.h"
#include "fractal_panel.h"
#include "mainwindow.h"
#include "raster_panel.h"
#include "swizzle_panel.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>

namespace tsw {

BankDocks::BankDocks(MainWindow* w) : QObject(w) {
    setObjectName(QStringLiteral("bankDocks"));
    bank_ = new BankPanel;
    ub_ = new UbPanel;
    swizzle_ = new SwizzlePanel;
    fractal_ = new FractalPanel;
    raster_ = new RasterPanel;
    QMenu* menu = w->menuBar()->addMenu(QStringLiteral("&Analysis"));
    QDockWidget* first = nullptr;
    auto dock = [&](const QString& title, const QString& name, QWidget* panel) {
        auto* d = new QDockWidget(title, w);
        d->setObjectName(name);
        auto* scroll = new QScrollArea(d);
        scroll->setWidget(panel);
        scroll->setWidgetResizable(true);
        d->setWidget(scroll);
        w->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (first)
            w->tabifyDockWidget(first, d);
        else
            first = d;
        d->hide();
        menu->addAction(d->toggleViewAction());
        // An analysis is read, not glanced at: it opens tall enough for its grids' numbers.
        growWhenShown(w, d);
        return d;
    };
    bankDock_ = dock(QStringLiteral("Bank conflicts"), QStringLiteral("bankDock"), bank_);
    dock(QStringLiteral("Ascend UB banks"), QStringLiteral("ubDock"), ub_);
    dock(QStringLiteral("Swizzle"), QStringLiteral("swizzleDock"), swizzle_);
    fractalDock_ = dock(QStringLiteral("Ascend fractals"), QStringLiteral("fractalDock"), fractal_);
    dock(QStringLiteral("Block rasterization"), QStringLiteral("rasterDock"), raster_);
    connect(w->evaluator(), &LayoutEvaluator::finished, this, [this](const EvalResult& r) {
        if (r.ok && r.mapping && std::holds_alternative<ts::Layout>(*r.mapping))
            bank_->setLayoutText(r.text);
    });
}

} // namespace tsw
