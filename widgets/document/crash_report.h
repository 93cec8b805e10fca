// SPDX-License-Identifier: Apache-2.0
// Crash reports: a fatal signal (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL) leaves a text file
// next to the autosave (RecoveryManager::directory()/crash-<pid>-<start>.txt) with the version,
// the signal, the last user actions and a backtrace, then the signal is raised again so that the
// process still ends as it would have (a core dump, the exit status a parent sees). The next
// start offers the report together with the recovery prompt.
//
// The handler runs in a broken process, so it only does what is async-signal-safe (open, write,
// close, raise) on memory prepared beforehand: the file name is formatted at install time, the
// actions live in a fixed ring of fixed-size slots, and backtrace() is called once at install so
// that it has loaded its unwinder before it is needed (its first call may allocate). It runs on
// its own stack, so a stack overflow is reported too.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace tsw::crash {

// How many actions the report keeps (the oldest is dropped first), and how long each may be.
inline constexpr int kActionSlots = 20;
inline constexpr int kActionBytes = 160;

// Installs the handlers for this process (once; later calls only change the directory).
// Returns false when the directory cannot be created (no report is written then).
bool install(const QString& directory, const QString& version);
// The report this process would write ("" before install()).
QString reportPath();

// Records a user action ("View ▸ Zoom In (Ctrl++)"), on the GUI thread. Cut to kActionBytes.
void noteAction(const QString& what);
// The actions recorded, oldest first (what a report would list now).
QStringList actions();

// Reports left by earlier sessions in `directory` (newest first), and removing one.
struct Report {
    QString file;
    QDateTime written;
    QString text;
};
QList<Report> pending(const QString& directory);
void discard(const Report& r);

} // namespace tsw::crash
