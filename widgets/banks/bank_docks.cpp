// SPDX-License-Identifier: Apache-2.0
// BankDocks (see bank_docks.h).
#include "banks/bank_docks.h"

#include "banks/bank_access_keeper.h"
#include "banks/bank_panel.h"
#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/raster_panel.h"
#include "banks/swizzle_panel.h"
#include "common/dock_sizing.h"
#include "common/feature_bus.h"
#include "common/feature_host.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>

namespace tsw {

BankDocks::BankDocks(FeatureHost* host) : QObject(host->hostWindow()) {
    QMainWindow* w = host->hostWindow();
    DocumentModel* doc = host->document();
    LayoutEvaluator* eval = host->evaluator();
    setObjectName(QStringLiteral("bankDocks"));
    bank_ = new BankPanel;
    ub_ = new UbPanel;
    swizzle_ = new SwizzlePanel;
    fractal_ = new FractalPanel;
    raster_ = new RasterPanel;
    QMenu* menu = w->menuBar()->addMenu(QStringLiteral("&Analysis"));
    QDockWidget* first = nullptr;
    auto dock = [&](const QString& title, const QString& name, QWidget* panel) {
        // `title` carries the menu's mnemonic ("&Swizzle"); the dock's own title does not.
        auto* d = new QDockWidget(QString(title).remove(QLatin1Char('&')), w);
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
        d->toggleViewAction()->setText(title);
        menu->addAction(d->toggleViewAction());
        // An analysis is read, not glanced at: it opens tall enough for its grids' numbers.
        growWhenShown(w, d);
        return d;
    };
    bankDock_ = dock(QStringLiteral("&Bank conflicts"), QStringLiteral("bankDock"), bank_);
    dock(QStringLiteral("Ascend &UB banks"), QStringLiteral("ubDock"), ub_);
    dock(QStringLiteral("&Swizzle"), QStringLiteral("swizzleDock"), swizzle_);
    fractalDock_ =
        dock(QStringLiteral("Ascend &fractals"), QStringLiteral("fractalDock"), fractal_);
    dock(QStringLiteral("Block &rasterization"), QStringLiteral("rasterDock"), raster_);
    // The bank panel analyses the active layout when it is a T.Layout, and says so when it is
    // not (it keeps the last T.Layout it had, named as such). From the moment the active
    // layout's text changes its numbers are marked (they may be about to change), until the
    // evaluation says what the new text is; another project drops them altogether.
    // The panel names layouts by identity and looks their names up in the document.
    bank_->setDocument(doc);
    connect(eval, &LayoutEvaluator::requested, this, [this, doc] {
        if (doc->activeLayout()) bank_->activeLayoutChanging(doc->activeId());
    });
    connect(doc, &DocumentModel::documentReset, bank_, &BankPanel::resetForProject);
    // The access set up in the panel is kept with the layout it analyses.
    keeper_ = new BankAccessKeeper(bank_, doc, this);
    connect(doc, &DocumentModel::layoutAboutToBeRemoved, this,
            [this, doc](int i) { bank_->projectLayoutRemoved(doc->idAt(i)); });
    // What the panel shows, for a feature that saves it (the lesson panel): asked and answered
    // in one call.
    connect(host->bus(), &FeatureBus::shownAnalysisRequested, keeper_,
            &BankAccessKeeper::describeShown, Qt::DirectConnection);
    // Any layout's text, also one that is not active (an undo or a redo changes it there).
    connect(doc, &DocumentModel::textChanged, this, [this, doc](int i) {
        bank_->projectLayoutTextChanged(doc->idAt(i), QString::fromStdString(doc->layout(i).text),
                                        i == doc->active());
    });
    connect(eval, &LayoutEvaluator::finished, this, [this, doc](const EvalResult& r) {
        const LayoutId id = doc->activeId();
        if (r.ok && r.mapping && std::holds_alternative<ts::Layout>(*r.mapping))
            bank_->setSourceLayout(id, r.text);
        else if (r.ok)
            bank_->setActiveElsewhere(
                id, QStringLiteral("it is a T.Fragment, which reads or writes a shared tile "
                                   "(use it as the access: fragment:<text>); the shared tile "
                                   "is a T.Layout"));
        else
            bank_->setActiveElsewhere(id, QStringLiteral("its text has an error"));
    });
    // Measured next to predicted on the heat map, and msprof op's UB conflict ratios next to
    // the UB model's prediction.
    connect(host->bus(), &FeatureBus::bankMeasured, bank_, [this](const BankMeasurement& m) {
        bank_->setMeasurement(m.measuredWf, m.predictedWf, m.nsPerWavefront, m.device, m.pattern);
    });
    connect(host->bus(), &FeatureBus::ascendMeasured, ub_,
            [this](std::shared_ptr<const ts::MsprofOpResult> m) {
                if (m) ub_->setMeasurement(*m);
            });
}

} // namespace tsw
