// SPDX-License-Identifier: Apache-2.0
// RunController: the non-widget logic of "Run on device". It checks the layout in core
// before anything starts (prepareRun: bijection onto shared memory, tile size), then runs one
// child process asynchronously:
//   LocalGpu  tilescope-probe here (JSON request on stdin);
//   Ssh       ssh -o BatchMode=yes -o ConnectTimeout=N [-p P] [user@]host -- <remote probe>,
//             the same request piped over stdin;
//   TileLang  python <generated script> (tilelang_kernel.h), output streamed for the trace viewer;
//   Ascend    detects CANN; runs the tilelang-ascend ND->NZ script only when it is complete.
// Every child: an argument list (no shell), its own process group (cancel and timeout kill the
// group), a private QTemporaryDir (0700) as working directory, a timeout. Nothing runs except
// from start() (the Run button); opening projects or logs never reaches this class.
#pragma once

#include "common/python_choice.h"
#include "run/run_history.h"

#include "tilescope/device/cann_detect.h"
#include "tilescope/device/msprof_op.h"
#include "tilescope/device/run_prepare.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

class QTemporaryDir;
class QTimer;
class QSettings;

namespace tsw {

enum class RunTarget { LocalGpu, Ssh, TileLang, Ascend };
QString runTargetName(RunTarget t);

struct RunSettings {
    QString probePath; // empty: next to the app, then PATH
    QString sshProgram = QStringLiteral("ssh");
    QString sshHost, sshUser;
    int sshPort = 0;            // 0: ssh's default
    int sshConnectTimeout = 10; // seconds
    QString sshRemoteProbe = QStringLiteral("tilescope-probe");
    QString python;        // empty: see resolvePython
    double timeoutS = 180; // whole child, after which its group is killed
    void load(QSettings& s);
    void save(QSettings& s) const;
};

// The interpreter for the TileLang and Ascend targets (python_choice.h).
PythonChoice resolvePython(const RunSettings& s);

struct RunSpec {
    QString layoutName, mappingText, dtype = QStringLiteral("float16"), access;
    // Ascend: the tilelang-ascend branch to generate for ("ascendc_pto", the released one, or
    // "npuir"); the ND shape is the layout's 2-D input shape.
    QString ascendBackend = QStringLiteral("ascendc_pto");
    // Ascend: the chip whose capacities the tile is checked against ("a2a3" or "950").
    QString ascendChip = QStringLiteral("a2a3");
    int vector = 0;
    bool store = false;
    bool ncu = true;
    // Compile the generated kernel (probe: NVRTC/nvcc for the arch; TileLang: lower) and stop:
    // works without a GPU.
    bool compileOnly = false;
};

// The core input for the probe request of a spec: the one construction shared with
// `tilescope-cli probe-request` (ts::probeRequestFor).
ts::ProbeRequestInput probeRequestInput(const RunSpec& spec, const RunSettings& settings);

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    RunSettings& settings() { return settings_; }
    void setSettings(const RunSettings& s) { settings_ = s; }

    // Checks and starts. Returns false (and emits failed) when the check or the start fails;
    // the GUI stays usable either way.
    bool start(RunTarget target, const RunSpec& spec);
    void cancel();
    bool isRunning() const { return process_ != nullptr || detecting_; }
    RunTarget target() const { return target_; }

    // The last child's program and arguments (tests, the log pane).
    QString program() const { return program_; }
    QStringList arguments() const { return arguments_; }
    QString workingDirectory() const { return workDir_; }
    QString lastMessage() const { return lastMessage_; }
    QString lastLog() const { return lastLog_; }
    // The probe request of the last LocalGpu/SSH start (empty when the check refused it).
    QByteArray lastRequest() const { return lastRequest_; }
    const RunRecord& lastRecord() const { return last_; }

    // The probe binary to use; empty when none is found.
    QString resolveProbe() const;
    // Text for a probe exit code (docs/probe.md), with the probe's own error when given.
    // `sshStderr`, `host`: for ssh's exit 255, what ssh said and to which host (ssh_failure.h).
    static QString messageForExit(RunTarget t, int code, const QString& probeError,
                                  const QString& sshStderr = {}, const QString& host = {});
    // Checks the SSH settings (no option injection, a plain remote path); empty when fine.
    static QString sshSettingsProblem(const RunSettings& s);

signals:
    void started(const QString& description);
    void progress(const QString& stage, double elapsedSeconds);
    void output(const QString& text);             // live child output (log pane)
    void tileLangOutput(const QByteArray& chunk); // TileLang script output (trace viewer)
    void tileLangFinished();
    // What msprof op measured in an Ascend run (read before the run's directory is removed).
    void ascendMeasured(std::shared_ptr<const ts::MsprofOpResult> measurement);
    void finished(const tsw::RunRecord& record); // every finished run (ok or not)
    void failed(const QString& message, const QString& log);

private:
    bool launch(const QString& program, const QStringList& args, const QByteArray& stdinData,
                const QString& description);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void finishProbe(int exitCode, bool crashed);
    void finishTileLang(int exitCode, bool crashed);
    bool launchAscend(const ts::CannInstallation& cann, const ts::CannProbeOptions& probe,
                      const std::string& script);
    void fail(const QString& message, const QString& log, bool record = true);
    void killGroup();
    void cleanup();

    RunSettings settings_;
    RunTarget target_ = RunTarget::LocalGpu;
    RunSpec spec_;
    QProcess* process_ = nullptr;
    std::unique_ptr<QTemporaryDir> tmp_;
    QTimer* timer_ = nullptr;
    QTimer* ticker_ = nullptr;
    QElapsedTimer clock_;
    QByteArray out_, err_;
    QString program_, workDir_;
    QString python_;         // the interpreter of the last TileLang / Ascend run
    bool detecting_ = false; // an Ascend run's CANN checks are running off the UI thread
    // NAME=value entries the next launch adds (the Ascend run's CANN settings).
    QStringList extraEnv_;
    QStringList arguments_;
    QString lastMessage_, lastLog_;
    bool launched_ = false; // a child was started for the current request
    QByteArray lastRequest_;
    RunRecord pending_, last_;
    bool cancelled_ = false, timedOut_ = false;
    qint64 pid_ = 0;
};

} // namespace tsw
