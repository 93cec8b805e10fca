// SPDX-License-Identifier: Apache-2.0
// The one Python for everything TileLang (Run ▸ Target: TileLang and Ascend, Trace ▸ Run
// Script): the interpreter set in Run ▸ Settings, else $TILESCOPE_PYTHON, else .venv/bin/python
// in the working directory or the source tree (from its build tree only), else python3 on PATH.
// Shared here because two features use it and neither may include the other.
#pragma once

#include <QString>

namespace tsw {

struct PythonChoice {
    QString program, origin; // program empty when there is none; origin says where, for messages
};

PythonChoice resolvePython(const QString& configured);

// Run ▸ Settings' interpreter as saved in QSettings ("run/python"; empty when not set).
QString configuredPython();

} // namespace tsw
