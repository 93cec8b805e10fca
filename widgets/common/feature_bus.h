// SPDX-License-Identifier: Apache-2.0
// FeatureBus: what one feature library tells the others, without knowing them. A feature emits
// (the Run panel: "this was measured"); another listens (the bank panel shows it next to its
// prediction); the window owns the bus and hands it out through FeatureHost. Features never
// include each other, so everything that crosses between them is a signal here, in core or Qt
// types only.
#pragma once

#include "tilescope/device/msprof_op.h"
#include "tilescope/notation/document.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <memory>

namespace tsw {

// A shared-memory measurement of one access pattern on a GPU, with the model's prediction.
struct BankMeasurement {
    double measuredWf = 0, predictedWf = 0, nsPerWavefront = 0; // wavefronts per instruction
    QString device, pattern;
};

class FeatureBus : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    // A device run measured a layout's shared-memory access (Run panel -> bank panel).
    void bankMeasured(const tsw::BankMeasurement& m);
    // msprof op measured the Ascend UB (Run panel -> UB bank panel).
    void ascendMeasured(std::shared_ptr<const ts::MsprofOpResult> m);
    // A TileLang script's output as it arrives, then its end (Run panel -> inference trace).
    void tileLangOutput(const QByteArray& chunk);
    void tileLangFinished();
    // A feature offers a layout to the project (a trace's inferred layout, a kernel buffer's):
    // the window adds it, makes it active and says so; `origin` names where it came from.
    void openLayoutRequested(const QString& name, const QString& text, const QString& origin);
    // A question, answered during the emit (direct connections only): what analysis of project
    // layout `layout` (a LayoutId) is on screen now. A panel that shows one for it writes it into
    // *shown (the bank panel: its typed access, dtype, vector, store and instruction; "" panel
    // when it shows a fitted access in place of a saved bank access); *shown is left alone
    // otherwise. The lesson panel's "Save Current as Step" keeps what the teacher sees.
    void shownAnalysisRequested(quint64 layout, ts::AnalysisSettings* shown);
};

} // namespace tsw
