// SPDX-License-Identifier: Apache-2.0
// The bank panel's computation, runnable off the UI thread: parse the shared layout, work out
// the dtype (the one the layout text names, else the chosen one) and the access (the chosen one,
// or core defaultAccess() when it is automatic), build the access plan, run the wavefront model
// and the grid model of the tile. Nothing here touches a widget.
#pragma once

#include "common/latest_job.h"
#include "grid/gridmodel.h"

#include "tilescope/banks/access.h"

#include <QString>
#include <memory>
#include <optional>

namespace tsw {

struct BankInput {
    QString layoutText;
    QString accessText; // ignored when autoAccess
    bool autoAccess = false;
    QString dtype;
    int vector = 0;
    bool store = false;
};

struct BankAnalysis {
    bool ok = false;
    bool cancelled = false;
    QString error; // one line, when !ok
    // The access (not the layout) failed on this tile, e.g. a lane outside its domain: an
    // access fitted to the layout would not (a syntax error in the access is not this).
    bool accessMisfit = false;
    QString dtype; // the dtype analysed
    bool dtypeFromText = false;
    QString access;    // the access analysed (the automatic choice when autoAccess)
    QString accessWhy; // why that automatic choice
    QString shape;     // "8 x 64"
    std::shared_ptr<const ts::SharedTile> tile;
    std::shared_ptr<const ts::SharedAccess> plan;
    std::optional<ts::PlanCost> cost;
    GridModel grid;
};

BankAnalysis analyzeBanks(const BankInput& in, const CancelToken& token = {});

} // namespace tsw
