// SPDX-License-Identifier: Apache-2.0
// SIGTERM as a request to quit. Left to its default action, SIGTERM ends the process on the spot,
// as SIGKILL does: the session's autosave stays behind and the next start offers it for recovery
// as a crashed session's. But SIGTERM is how a normal end is asked for from outside (the Python
// bridge's Popen.terminate(), `kill PID`, a session or service manager shutting down), so it is
// handled: the handler only writes a byte to a pipe (about all a signal handler may safely do),
// and the event loop, watching the pipe, runs onTerminate() as its next event, in whichever loop
// runs (a modal dialog's included). SIGKILL cannot be handled: it still leaves the autosave for
// recovery, as a crash does.
#pragma once

#include <QString>
#include <functional>

class QObject;

namespace tsapp {

// Installs the SIGTERM handler; onTerminate runs on the GUI thread for each SIGTERM, from a
// notifier owned by `parent`. Returns false, with the reason in *error, when the pipe or the
// handler cannot be set up (SIGTERM then keeps its default action).
bool onTerminationSignal(QObject* parent, std::function<void()> onTerminate, QString* error);

} // namespace tsapp
