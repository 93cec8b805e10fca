// SPDX-License-Identifier: Apache-2.0
// TraceImporter: feeds TileLang log text to the incremental dump parser on a worker thread and
// delivers the events to the UI thread in batches. Three sources:
//  - a file, read once (openFile) or followed as it grows (follow = true: QFileSystemWatcher plus
//    a poll timer; a file that shrinks is re-read from the start);
//  - a child process (runProcess: program + argument list, never a shell), its merged
//    stdout/stderr streamed in, with cancel();
//  - text pushed by the caller (feedText / finishText), e.g. a paste.
// The UI thread never parses: a 50 MB log imports without blocking it.
#pragma once

#include "tilescope/trace/dump.h"

#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>
#include <memory>
#include <vector>

class QProcess;
class QTimer;
class QThread;

namespace tsw {

class TraceWorker;

using TraceEvents = std::vector<ts::dump::Event>;

class TraceImporter : public QObject {
    Q_OBJECT
public:
    explicit TraceImporter(QObject* parent = nullptr);
    ~TraceImporter() override;

    enum class State { Idle, Reading, Following, Running };
    enum class Source { None, File, Process, Text };
    State state() const { return state_; }
    QString source() const { return source_; }
    Source sourceKind() const { return sourceKind_; }

    // Starts a new import (the previous one is dropped; reset() is emitted first).
    void openFile(const QString& path, bool follow = false);
    void runProcess(const QString& program, const QStringList& args,
                    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                    const QString& workingDir = {});
    // python + a TileLang script, with the layout-visualization pass enabled (a small bootstrap
    // merges tl.layout_visualization_enable into every PassContext).
    void runTileLangScript(const QString& python, const QString& script,
                           const QStringList& scriptArgs = {});
    void feedText(const QByteArray& text);
    void finishText();
    // Stops following / kills the child process. finished(true) follows.
    void cancel();
    // Follow on/off for the open log file: on re-reads it and keeps reading as it grows (events
    // are delivered afresh after reset()); off stops reading and keeps what was read (finished()
    // follows, not cancelled). Does nothing for a process or pasted text.
    void setFollow(bool on);
    // A child still running after this long is killed and reported as timed out (a hung
    // compile must not hold the viewer forever). Default 30 minutes; applies to the next child.
    void setProcessTimeout(int seconds) { timeoutS_ = seconds; }
    int processTimeout() const { return timeoutS_; }

    qint64 bytesRead() const { return bytes_; }
    qint64 linesRead() const { return lines_; }

    static QString visualizationBootstrap();

signals:
    void reset(); // a new import started: drop old events
    void eventsReady(std::shared_ptr<const tsw::TraceEvents> events);
    void progress(qint64 bytes, qint64 lines, qint64 totalBytes); // totalBytes -1 if unknown
    void finished(bool cancelled, const QString& error);          // reading or process done
    void processOutput(const QString& text); // raw child output (for a console)

private:
    void startGeneration();
    void deliver(std::shared_ptr<const TraceEvents> ev, qint64 bytes, qint64 lines, qint64 total,
                 quint64 gen);
    void done(bool cancelled, const QString& error, quint64 gen);

    friend class TraceWorker;
    QThread* thread_ = nullptr;
    TraceWorker* worker_ = nullptr;
    QProcess* process_ = nullptr;
    State state_ = State::Idle;
    Source sourceKind_ = Source::None;
    QString source_;
    quint64 generation_ = 0;
    qint64 bytes_ = 0, lines_ = 0;
    bool cancelled_ = false;
    bool timedOut_ = false;
    int timeoutS_ = 30 * 60;
    QTimer* deadline_ = nullptr;
};

} // namespace tsw
