// SPDX-License-Identifier: Apache-2.0
#include "run/run_controller.h"

#include "tilescope/device/ascend_kernel.h"
#include "tilescope/device/cann_detect.h"
#include "tilescope/device/ssh_failure.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/device/tilelang_kernel.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtConcurrent>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#include <variant>

namespace tsw {

QString runTargetName(RunTarget t) {
    switch (t) {
    case RunTarget::LocalGpu:
        return QStringLiteral("this machine's GPU");
    case RunTarget::Ssh:
        return QStringLiteral("remote (SSH)");
    case RunTarget::TileLang:
        return QStringLiteral("TileLang (python)");
    case RunTarget::Ascend:
        return QStringLiteral("Ascend");
    }
    return {};
}

void RunSettings::load(QSettings& s) {
    s.beginGroup(QStringLiteral("run"));
    probePath = s.value("probePath", probePath).toString();
    sshProgram = s.value("sshProgram", sshProgram).toString();
    sshHost = s.value("sshHost", sshHost).toString();
    sshUser = s.value("sshUser", sshUser).toString();
    sshPort = s.value("sshPort", sshPort).toInt();
    sshConnectTimeout = s.value("sshConnectTimeout", sshConnectTimeout).toInt();
    sshRemoteProbe = s.value("sshRemoteProbe", sshRemoteProbe).toString();
    python = s.value("python", python).toString();
    timeoutS = s.value("timeoutS", timeoutS).toDouble();
    s.endGroup();
}

void RunSettings::save(QSettings& s) const {
    s.beginGroup(QStringLiteral("run"));
    s.setValue("probePath", probePath);
    s.setValue("sshProgram", sshProgram);
    s.setValue("sshHost", sshHost);
    s.setValue("sshUser", sshUser);
    s.setValue("sshPort", sshPort);
    s.setValue("sshConnectTimeout", sshConnectTimeout);
    s.setValue("sshRemoteProbe", sshRemoteProbe);
    s.setValue("python", python);
    s.setValue("timeoutS", timeoutS);
    s.endGroup();
}

PythonChoice resolvePython(const RunSettings& s) {
    return resolvePython(s.python);
}

RunController::RunController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<tsw::RunRecord>();
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, [this] {
        timedOut_ = true;
        killGroup();
    });
    ticker_ = new QTimer(this);
    ticker_->setInterval(250);
    connect(ticker_, &QTimer::timeout, this,
            [this] { emit progress(QStringLiteral("running"), clock_.elapsed() / 1000.0); });
}

RunController::~RunController() {
    if (process_) {
        process_->disconnect(this);
        killGroup();
        process_->waitForFinished(2000);
    }
}

QString RunController::resolveProbe() const {
    if (!settings_.probePath.isEmpty()) return settings_.probePath;
    const QByteArray env = qgetenv("TILESCOPE_PROBE");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString& rel :
         {QStringLiteral("/tilescope-probe"), QStringLiteral("/../probe/tilescope-probe"),
          QStringLiteral("/../app/probe/tilescope-probe")}) {
        QFileInfo fi(dir + rel);
        if (fi.isFile() && fi.isExecutable()) return fi.canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("tilescope-probe"));
}

QString RunController::sshSettingsProblem(const RunSettings& s) {
    static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9_.:\\[\\]-]+$"));
    static const QRegularExpression userRe(QStringLiteral("^[A-Za-z0-9_.-]*$"));
    static const QRegularExpression pathRe(QStringLiteral("^[A-Za-z0-9_./~+-]+$"));
    if (s.sshHost.isEmpty())
        return QStringLiteral("No SSH host is set: choose Run ▸ Settings and enter the host that "
                              "runs tilescope-probe.");
    if (s.sshHost.startsWith('-') || !hostRe.match(s.sshHost).hasMatch())
        return QStringLiteral("The SSH host '%1' is not a plain host name.").arg(s.sshHost);
    if (s.sshUser.startsWith('-') || !userRe.match(s.sshUser).hasMatch())
        return QStringLiteral("The SSH user '%1' is not a plain user name.").arg(s.sshUser);
    // ssh hands the remote command to the remote shell: only a plain path is accepted.
    if (s.sshRemoteProbe.startsWith('-') || !pathRe.match(s.sshRemoteProbe).hasMatch())
        return QStringLiteral("The remote probe path '%1' may hold only letters, digits and "
                              "_ . / ~ + -.")
            .arg(s.sshRemoteProbe);
    if (s.sshPort < 0 || s.sshPort > 65535) return QStringLiteral("Bad SSH port.");
    return {};
}

QString RunController::messageForExit(RunTarget t, int code, const QString& probeError,
                                      const QString& sshStderr, const QString& host) {
    const QString detail = probeError.isEmpty() ? QString() : QStringLiteral("\n\n") + probeError;
    if (t == RunTarget::Ssh && code == 255) {
        // ssh exits 255 for all of its own failures: its message says which one it was.
        const std::string why = ts::sshFailureReason(sshStderr.toStdString(), host.toStdString());
        if (!why.empty()) return QString::fromStdString(why) + detail;
    }
    if (t == RunTarget::Ssh && code == 255)
        return QStringLiteral("Lost connection: ssh could not reach the remote machine or the "
                              "connection dropped (ssh exit 255). Check the host, your key "
                              "(BatchMode: no password prompts) and the network.") +
               detail;
    switch (code) {
    case 0:
        return QStringLiteral("Finished.");
    case 1:
        return QStringLiteral("The probe failed internally (exit 1).") + detail;
    case 2:
        return QStringLiteral("The probe refused the request as bad input (exit 2).") + detail;
    case 3:
        return QStringLiteral("No CUDA driver or GPU on %1 (exit 3): the kernel was not run. "
                              "Compile Only (Run menu, or the button) still checks that it "
                              "compiles.")
                   .arg(t == RunTarget::Ssh ? QStringLiteral("the remote machine")
                                            : QStringLiteral("this machine")) +
               (t == RunTarget::Ssh
                    ? QString()
                    : QStringLiteral(" To measure on a GPU machine without this window: Export "
                                     "Probe Request… (Run menu or this panel), run "
                                     "tilescope-probe with it there, and bring its result back "
                                     "with File ▸ Import Measurements….")) +
               detail;
    case 4:
        return QStringLiteral("The generated kernel did not compile (exit 4); the compiler log "
                              "is below.") +
               detail;
    case 5:
        return QStringLiteral("The kernel hung and was killed after its timeout (exit 5).") +
               detail;
    case 6:
        return QStringLiteral("Verification failed (exit 6): the data round trip through the "
                              "layout mismatched, or the measured wavefronts differ from the "
                              "prediction.") +
               detail;
    case 127:
        if (t == RunTarget::Ssh)
            return QStringLiteral("tilescope-probe was not found on the remote machine (exit "
                                  "127): set the remote path in Run ▸ Settings.") +
                   detail;
        break;
    default:
        break;
    }
    return QStringLiteral("The run ended with exit code %1.").arg(code) + detail;
}

ts::ProbeRequestInput probeRequestInput(const RunSpec& spec, const RunSettings& settings) {
    ts::ProbeRequestInput in;
    in.layoutName = spec.layoutName.toStdString();
    in.mappingText = spec.mappingText.toStdString();
    in.dtype = spec.dtype.toStdString();
    in.access = spec.access.toStdString();
    in.vector = spec.vector;
    in.store = spec.store;
    in.ncu = spec.ncu;
    in.runTimeoutS = settings.timeoutS;
    return in;
}

bool RunController::start(RunTarget target, const RunSpec& spec) {
    if (process_ || detecting_) {
        fail(QStringLiteral("A run is already in progress: cancel it first."), {}, false);
        return false;
    }
    target_ = target;
    spec_ = spec;
    cancelled_ = timedOut_ = false;
    launched_ = false;
    pending_ = RunRecord{};
    lastRequest_.clear();
    pending_.when = QDateTime::currentDateTime();
    pending_.layout = spec.layoutName;
    pending_.pattern = spec.access;
    if (spec.vector) pending_.pattern += QStringLiteral(" (vec %1)").arg(spec.vector);
    pending_.target = runTargetName(target);
    pending_.dtype = spec.dtype;
    pending_.compileOnly = spec.compileOnly;

    // The checks happen here, in core, before any child is started.
    tmp_ =
        std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/tilescope-run-XXXXXX"));
    if (!tmp_->isValid()) {
        fail(QStringLiteral("Cannot create a private temporary directory: %1")
                 .arg(tmp_->errorString()),
             {});
        return false;
    }
    QFile::setPermissions(tmp_->path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    workDir_ = tmp_->path();

    if (target == RunTarget::LocalGpu || target == RunTarget::Ssh) {
        ts::PreparedRun prep;
        try {
            prep = ts::probeRequestFor(probeRequestInput(spec, settings_));
        } catch (const std::exception& e) {
            fail(QStringLiteral("Cannot run '%1': %2")
                     .arg(spec.layoutName, QString::fromUtf8(e.what())),
                 {});
            return false;
        }
        pending_.predictedWf = ts::predictedWavefrontsPerInstruction(prep.predicted);
        const QByteArray request = QByteArray::fromStdString(prep.request.dump());
        lastRequest_ = request;
        if (target == RunTarget::LocalGpu) {
            const QString probe = resolveProbe();
            if (probe.isEmpty()) {
                fail(QStringLiteral("tilescope-probe was not found next to the application nor "
                                    "on PATH (set its path in Run ▸ Settings)."),
                     {});
                return false;
            }
            if (probe.contains('/') && !QFileInfo(probe).isExecutable()) {
                fail(QStringLiteral("Could not start %1: no such executable (set the probe's path "
                                    "in Run ▸ Settings).")
                         .arg(probe),
                     {});
                return false;
            }
            return launch(
                probe,
                spec.compileOnly ? QStringList{QStringLiteral("--compile-only")} : QStringList{},
                request,
                spec.compileOnly ? QStringLiteral("compiling with tilescope-probe (no GPU needed)")
                                 : QStringLiteral("tilescope-probe on this machine"));
        }
        const QString problem = sshSettingsProblem(settings_);
        if (!problem.isEmpty()) {
            fail(problem, {});
            return false;
        }
        QStringList args{
            QStringLiteral("-o"),
            QStringLiteral("BatchMode=yes"),
            QStringLiteral("-o"),
            QStringLiteral("ConnectTimeout=%1").arg(std::max(1, settings_.sshConnectTimeout)),
            QStringLiteral("-o"),
            QStringLiteral("ServerAliveInterval=15"),
            QStringLiteral("-T")};
        if (settings_.sshPort > 0)
            args << QStringLiteral("-p") << QString::number(settings_.sshPort);
        args << (settings_.sshUser.isEmpty() ? settings_.sshHost
                                             : settings_.sshUser + '@' + settings_.sshHost);
        args << QStringLiteral("--") << settings_.sshRemoteProbe;
        if (spec.compileOnly) args << QStringLiteral("--compile-only");
        return launch(settings_.sshProgram, args, request,
                      QStringLiteral("tilescope-probe on %1 over SSH").arg(settings_.sshHost));
    }

    if (target == RunTarget::TileLang) {
        std::string script;
        try {
            const ts::Mapping m = ts::parseMapping(spec.mappingText.toStdString());
            const ts::Layout* l = std::get_if<ts::Layout>(&m);
            if (!l)
                throw ts::InputError("a TileLang run needs a shared T.Layout, not a T.Fragment");
            ts::sharedTileDesc(*l, spec.dtype.toStdString());
            ts::TileLangKernelOptions o;
            o.name = spec.layoutName.toStdString();
            o.dtype = spec.dtype.toStdString();
            o.run_on_gpu = !spec.compileOnly;
            script = ts::generateTileLangKernel(*l, o);
        } catch (const std::exception& e) {
            fail(QStringLiteral("Cannot run '%1' through TileLang: %2")
                     .arg(spec.layoutName, QString::fromUtf8(e.what())),
                 {});
            return false;
        }
        // Only an interpreter is looked for here: importing tilelang takes seconds, so that
        // check happens in the child, whose script reports "cannot import tilelang" on its own.
        const PythonChoice py = resolvePython(settings_);
        if (py.program.isEmpty()) {
            fail(QStringLiteral("TileLang is not available: no Python set in Run ▸ Settings, no "
                                "TILESCOPE_PYTHON, no .venv/bin/python next to the project and no "
                                "python3 on PATH."),
                 {});
            return false;
        }
        python_ = py.program;
        const QString path = workDir_ + QStringLiteral("/tile_kernel.py");
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(script)) < 0) {
            fail(QStringLiteral("Cannot write the TileLang script: %1").arg(f.errorString()), {});
            return false;
        }
        f.close();
        return launch(python_, {QStringLiteral("-u"), path}, {},
                      QStringLiteral("TileLang kernel through %1").arg(python_));
    }

    // Ascend.
    if (spec.compileOnly) {
        fail(QStringLiteral("Compile only is not available for the Ascend target: its script "
                            "compiles and runs in one step."),
             {}, false);
        return false;
    }
    // The kernel first (the shape and dtype checks need no toolkit), then CANN.
    std::string script;
    try {
        const ts::AscendKernelOptions o = ts::ascendKernelOptionsFor(
            spec.mappingText.toStdString(), spec.dtype.toStdString(),
            spec.ascendBackend.toStdString(), spec.ascendChip.toStdString());
        // Refuses a tile that does not fit the chip, naming the buffer and both sizes.
        script = ts::generateAscendNdToNzKernel(o);
    } catch (const std::exception& e) {
        fail(QStringLiteral("Cannot generate the Ascend kernel for '%1': %2")
                 .arg(spec.layoutName, QString::fromUtf8(e.what())),
             {});
        return false;
    }
    // The Python the run uses is the one probed for tilelang-ascend and torch_npu. The probes
    // (npu-smi info, importing torch_npu) take seconds: they run off the UI thread, and the run
    // starts when they are done.
    const PythonChoice py = resolvePython(settings_);
    python_ = py.program.isEmpty() ? QStringLiteral("python3") : py.program;
    ts::CannProbeOptions probe;
    probe.backend = ts::parseAscendBackend(spec.ascendBackend.toStdString());
    probe.python = py.program.toStdString();
    // Files and PATH first, at once: what is missing there needs no probe.
    ts::CannProbeOptions quick = probe;
    quick.run_probes = false;
    const ts::CannInstallation files = ts::detectCann(nullptr, quick);
    if (!files.missing.empty()) {
        fail(QStringLiteral("Cannot run on Ascend here.\n%1")
                 .arg(QString::fromStdString(files.summary())),
             {});
        return false;
    }
    detecting_ = true;
    launched_ = true;
    emit started(QStringLiteral("checking the CANN installation"));
    auto* watch = new QFutureWatcher<ts::CannInstallation>(this);
    connect(watch, &QFutureWatcher<ts::CannInstallation>::finished, this,
            [this, watch, probe, script] {
                const ts::CannInstallation cann = watch->result();
                watch->deleteLater();
                detecting_ = false;
                if (cancelled_) {
                    fail(QStringLiteral("Cancelled."), {});
                    cleanup();
                    return;
                }
                if (!cann.complete && !cann.simulator_only) {
                    fail(QStringLiteral("Cannot run on Ascend here.\n%1")
                             .arg(QString::fromStdString(cann.summary())),
                         {});
                    cleanup();
                    return;
                }
                launchAscend(cann, probe, script);
            });
    watch->setFuture(QtConcurrent::run([probe] { return ts::detectCann(nullptr, probe); }));
    return true;
}

bool RunController::launchAscend(const ts::CannInstallation& cann,
                                 const ts::CannProbeOptions& probe, const std::string& script) {
    const QString path = workDir_ + QStringLiteral("/nd2nz.py");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(script)) < 0) {
        fail(QStringLiteral("Cannot write the Ascend script: %1").arg(f.errorString()), {});
        return false;
    }
    f.close();
    // msprof op (or msprof op simulator without a device), after set_env.sh when needed.
    const ts::MsprofCommand cmd =
        ts::msprofOpCommand(cann, python_.toStdString(), path.toStdString(),
                            (workDir_ + QStringLiteral("/msprof")).toStdString(), probe);
    QStringList args;
    for (std::size_t i = 1; i < cmd.argv.size(); ++i)
        args << QString::fromStdString(cmd.argv[i]);
    extraEnv_.clear();
    for (const std::string& e : cmd.env)
        extraEnv_ << QString::fromStdString(e);
    return launch(QString::fromStdString(cmd.argv[0]), args, {},
                  cmd.simulator ? QStringLiteral("tilelang-ascend ND->NZ under msprof op simulator")
                                : QStringLiteral("tilelang-ascend ND->NZ under msprof op"));
}

bool RunController::launch(const QString& program, const QStringList& args,
                           const QByteArray& stdinData, const QString& description) {
    out_.clear();
    err_.clear();
    program_ = program;
    arguments_ = args;
    process_ = new QProcess(this);
    process_->setProgram(program);
    process_->setArguments(args); // an argument list: no shell ever parses it
    process_->setWorkingDirectory(workDir_);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    env.insert(QStringLiteral("TMPDIR"), workDir_);
    for (const QString& e : std::as_const(extraEnv_)) {
        const auto eq = e.indexOf(QLatin1Char('='));
        env.insert(e.left(eq), e.mid(eq + 1));
    }
    extraEnv_.clear();
    process_->setProcessEnvironment(env);
    // Own process group, so that cancel and the timeout end the child's children too.
    process_->setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(process_, &QProcess::readyReadStandardOutput, this, [this] {
        const QByteArray chunk = process_->readAllStandardOutput();
        out_ += chunk;
        if (target_ == RunTarget::TileLang || target_ == RunTarget::Ascend) {
            emit tileLangOutput(chunk);
            emit output(QString::fromUtf8(chunk));
        }
    });
    connect(process_, &QProcess::readyReadStandardError, this, [this] {
        const QByteArray chunk = process_->readAllStandardError();
        if (err_.size() < (8 << 20)) err_ += chunk;
        if (target_ == RunTarget::TileLang || target_ == RunTarget::Ascend)
            emit tileLangOutput(chunk);
        emit output(QString::fromUtf8(chunk));
    });
    connect(process_, &QProcess::finished, this, &RunController::onFinished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || !process_) return;
        const QString msg =
            QStringLiteral("Could not start %1: %2").arg(program_, process_->errorString());
        process_->deleteLater();
        process_ = nullptr;
        timer_->stop();
        ticker_->stop();
        fail(msg, {});
        cleanup();
    });
    clock_.start();
    timer_->start(int(std::max(1.0, settings_.timeoutS) * 1000));
    ticker_->start();
    launched_ = true;
    emit started(description);
    emit progress(QStringLiteral("starting"), 0);
    process_->start();
    if (process_ && process_->state() != QProcess::NotRunning) {
        pid_ = process_->processId();
        if (!stdinData.isEmpty()) process_->write(stdinData);
        process_->closeWriteChannel();
    }
    return process_ != nullptr;
}

void RunController::killGroup() {
    if (!process_) return;
    const qint64 pid = process_->processId();
    if (pid > 0) {
        ::kill(-pid_t(pid), SIGTERM);
        ::kill(-pid_t(pid), SIGKILL); // a hung kernel or a sleeping stub does not get a say
    }
    process_->kill();
}

void RunController::cancel() {
    if (detecting_) {
        cancelled_ = true; // the detection finishes on its own, then reports "Cancelled."
        return;
    }
    if (!process_) return;
    cancelled_ = true;
    killGroup();
}

void RunController::onFinished(int exitCode, QProcess::ExitStatus status) {
    if (!process_) return;
    timer_->stop();
    ticker_->stop();
    out_ += process_->readAllStandardOutput();
    err_ += process_->readAllStandardError();
    // Anything the group left behind is ended with it.
    if (pid_ > 0) ::kill(-pid_t(pid_), SIGKILL);
    process_->deleteLater();
    process_ = nullptr;
    pending_.seconds = clock_.elapsed() / 1000.0;
    const bool crashed = status == QProcess::CrashExit;
    if (cancelled_) {
        fail(QStringLiteral("Cancelled."), QString::fromUtf8(err_));
    } else if (timedOut_) {
        fail(QStringLiteral("The run did not finish within %1 s and was killed (with its "
                            "children).")
                 .arg(settings_.timeoutS),
             QString::fromUtf8(err_));
    } else if (target_ == RunTarget::LocalGpu || target_ == RunTarget::Ssh) {
        finishProbe(exitCode, crashed);
    } else {
        finishTileLang(exitCode, crashed);
    }
    if (target_ == RunTarget::TileLang || target_ == RunTarget::Ascend) emit tileLangFinished();
    cleanup();
}

void RunController::finishProbe(int exitCode, bool crashed) {
    const QString errText = QString::fromUtf8(err_);
    // The probe's answer (JSON on stdout) belongs in the log as much as its stderr.
    if (!out_.trimmed().isEmpty()) emit output(QString::fromUtf8(out_));
    if (crashed) {
        fail(QStringLiteral("%1 crashed.").arg(QFileInfo(program_).fileName()), errText);
        return;
    }
    QJsonParseError pe{};
    const QJsonDocument d = QJsonDocument::fromJson(out_.trimmed(), &pe);
    const QJsonObject r = d.object();
    const QString probeError = r.value("error").toString();
    if (exitCode != 0 || pe.error != QJsonParseError::NoError || !r.value("ok").toBool(false)) {
        QString log = r.value("compile").toObject().value("log").toString();
        if (!errText.isEmpty()) log += (log.isEmpty() ? "" : "\n") + errText;
        if (exitCode == 0 && pe.error != QJsonParseError::NoError)
            fail(QStringLiteral("The probe's answer is not JSON: %1").arg(pe.errorString()), log);
        else {
            if (exitCode == 6) {
                // Verification failures still carry measurements worth keeping.
                pending_.roundTrip = r.value("roundtrip").toObject().value("pass").toBool(true)
                                         ? QStringLiteral("pass")
                                         : QStringLiteral("fail");
            }
            fail(messageForExit(target_, exitCode, probeError, errText, settings_.sshHost), log);
        }
        return;
    }
    RunRecord rec = pending_;
    rec.ok = true;
    if (spec_.compileOnly) {
        const QJsonObject c = r.value("compile").toObject();
        rec.verdict = QStringLiteral("compiled with %1 for %2 in %3 s; not run (compile only)")
                          .arg(c.value("compiler").toString(QStringLiteral("?")),
                               c.value("arch").toString(QStringLiteral("?")))
                          .arg(c.value("seconds").toDouble(), 0, 'f', 2);
        if (rec.seconds < 0) rec.seconds = r.value("seconds_total").toDouble(-1);
        last_ = rec;
        // "Compiled with nvrtc 13.0 for sm_90 in 0.23 s. Predicted 1 wf/instr; nothing ran."
        QString done = rec.verdict.section(QLatin1Char(';'), 0, 0);
        if (!done.isEmpty()) done[0] = done[0].toUpper();
        lastMessage_ =
            done + QStringLiteral(". Predicted %1 wf/instr; nothing ran.").arg(rec.predictedWf);
        lastLog_ = errText;
        emit finished(rec);
        return;
    }
    const QJsonObject dev = r.value("device").toObject();
    rec.device = dev.value("name").toString();
    const QJsonObject t = r.value("timing").toObject();
    rec.cyclesPerInstr = t.value("cycles_per_instruction_per_sm").toDouble(-1);
    const double clockKhz = dev.value("clock_khz").toDouble(0);
    if (rec.cyclesPerInstr >= 0 && clockKhz > 0)
        rec.nsPerInstr = rec.cyclesPerInstr * 1e6 / clockKhz;
    rec.nsPerWavefront = t.value("ns_per_wavefront_per_sm").toDouble(-1);
    rec.roundTrip = r.value("roundtrip").toObject().value("pass").toBool() ? QStringLiteral("pass")
                                                                           : QStringLiteral("fail");
    const QJsonObject ncu = r.value("ncu_1warp").toObject();
    if (!ncu.isEmpty())
        rec.measuredWf = ncu.value("measured_wavefronts_per_instruction").toDouble(-1);
    if (rec.seconds < 0) rec.seconds = r.value("seconds_total").toDouble(-1);
    if (rec.measuredWf < 0)
        rec.verdict = QStringLiteral("timed (ncu not on PATH: predicted only)");
    else
        rec.verdict =
            ncu.value("agree").toBool() ? QStringLiteral("agree") : QStringLiteral("differs");
    last_ = rec;
    lastMessage_ =
        QStringLiteral("Finished: %1 wf/instr predicted, %2 measured, %3 cycles/instr.")
            .arg(rec.predictedWf)
            .arg(rec.measuredWf < 0 ? QStringLiteral("not") : QString::number(rec.measuredWf))
            .arg(rec.cyclesPerInstr, 0, 'f', 2);
    lastLog_ = errText;
    emit finished(rec);
}

void RunController::finishTileLang(int exitCode, bool crashed) {
    const std::string all = out_.toStdString() + "\n" + err_.toStdString();
    const ts::TileLangRunReport rep = ts::parseTileLangOutput(all);
    const QString log = QString::fromUtf8(out_) + QString::fromUtf8(err_);
    if (crashed) {
        fail(QStringLiteral("%1 crashed while running the generated kernel.").arg(python_), log);
        return;
    }
    if (exitCode != 0 || !rep.lowered) {
        QString why = rep.errors.empty() ? QString() : QString::fromStdString(rep.errors.back());
        fail(QStringLiteral("The TileLang kernel failed with %1 (exit %2)%3")
                 .arg(python_)
                 .arg(exitCode)
                 .arg(why.isEmpty() ? QStringLiteral(".") : QStringLiteral(": ") + why),
             log);
        return;
    }
    RunRecord rec = pending_;
    rec.ok = true;
    QString profile;
    if (target_ == RunTarget::Ascend) {
        // msprof op's CSVs are a few lines each; read them now, before cleanup() removes them.
        try {
            auto m = std::make_shared<ts::MsprofOpResult>(
                ts::readMsprofOpDir((workDir_ + QStringLiteral("/msprof")).toStdString()));
            profile = QString::fromStdString(m->summary());
            emit ascendMeasured(m);
        } catch (const std::exception& e) {
            profile = QStringLiteral("msprof op: %1\n").arg(QString::fromUtf8(e.what()));
        }
    }
    if (rep.latency_ms) rec.latencyMs = *rep.latency_ms;
    if (rep.roundtrip)
        rec.roundTrip = *rep.roundtrip ? QStringLiteral("pass") : QStringLiteral("fail");
    rec.verdict = spec_.compileOnly ? QStringLiteral("lowered in %1 s; not run (compile only)")
                                          .arg(rep.lower_seconds, 0, 'f', 2)
                  : !rep.no_gpu.empty() ? QStringLiteral("lowered (%1 s); not run: %2")
                                              .arg(rep.lower_seconds, 0, 'f', 2)
                                              .arg(QString::fromStdString(rep.no_gpu))
                                        : QStringLiteral("ran: round trip %1").arg(rec.roundTrip);
    last_ = rec;
    lastMessage_ =
        (target_ == RunTarget::Ascend ? QStringLiteral("Ascend: ") : QStringLiteral("TileLang: ")) +
        rec.verdict;
    lastLog_ = profile + log;
    emit finished(rec);
}

void RunController::fail(const QString& message, const QString& log, bool record) {
    lastMessage_ = message;
    lastLog_ = log;
    // A request refused before anything ran (a fragment, no probe, a bad setting) is said, not
    // recorded: the history and the project hold runs that happened.
    if (record && launched_) {
        RunRecord rec = pending_;
        rec.ok = false;
        rec.verdict = message.section('\n', 0, 0);
        last_ = rec;
        emit finished(rec);
    }
    emit failed(message, log);
}

void RunController::cleanup() {
    tmp_.reset(); // removes the private directory and what the child wrote there
    pid_ = 0;
}

} // namespace tsw
