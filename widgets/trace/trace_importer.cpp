// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_importer.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QProcess>
#include <QThread>
#include <QTimer>

namespace tsw {

// Lives on the worker thread; every method runs there.
class TraceWorker : public QObject {
public:
    explicit TraceWorker(TraceImporter* owner) : owner_(owner) {}

    void start(quint64 gen) {
        stopFollowing();
        gen_ = gen;
        parser_ = std::make_unique<ts::dump::Parser>();
        file_.reset();
        offset_ = 0;
    }

    void openFile(const QString& path, bool follow, quint64 gen) {
        start(gen);
        path_ = path;
        file_ = std::make_unique<QFile>(path);
        if (!file_->open(QIODevice::ReadOnly)) {
            QString err =
                QStringLiteral("cannot open log '%1': %2").arg(path, file_->errorString());
            file_.reset();
            post([o = owner_, err, gen] { o->done(false, err, gen); });
            return;
        }
        readAvailable();
        if (follow) {
            watcher_ = new QFileSystemWatcher(this);
            watcher_->addPath(path);
            QObject::connect(watcher_, &QFileSystemWatcher::fileChanged, this,
                             [this] { readAvailable(); });
            timer_ = new QTimer(this);
            timer_->setInterval(300);
            QObject::connect(timer_, &QTimer::timeout, this, [this] { readAvailable(); });
            timer_->start();
        } else {
            finish(false, {});
        }
    }

    void readAvailable() {
        if (!file_) return;
        const qint64 size = QFileInfo(path_).size();
        if (size < offset_) { // truncated or replaced: start over
            const quint64 gen = gen_;
            parser_ = std::make_unique<ts::dump::Parser>();
            offset_ = 0;
            file_ = std::make_unique<QFile>(path_);
            if (!file_->open(QIODevice::ReadOnly)) return;
            post([o = owner_, gen] {
                if (gen == o->generation_) emit o->reset();
            });
        }
        file_->seek(offset_);
        QByteArray buf;
        while (true) {
            buf = file_->read(1 << 20);
            if (buf.isEmpty()) break;
            offset_ += buf.size();
            feed(buf, size);
            if (parser_->stopped()) break;
        }
    }

    void feed(const QByteArray& data, qint64 total = -1) {
        if (!parser_) parser_ = std::make_unique<ts::dump::Parser>();
        auto ev = std::make_shared<TraceEvents>(
            parser_->feed(std::string_view(data.constData(), std::size_t(data.size()))));
        send(std::move(ev), total);
    }

    void finish(bool cancelled, const QString& error) {
        stopFollowing();
        if (parser_) {
            auto ev = std::make_shared<TraceEvents>(parser_->finish());
            send(std::move(ev), -1);
        }
        file_.reset();
        const quint64 gen = gen_;
        post([o = owner_, cancelled, error, gen] { o->done(cancelled, error, gen); });
    }

    void stopFollowing() {
        delete watcher_;
        watcher_ = nullptr;
        delete timer_;
        timer_ = nullptr;
    }

private:
    template <class F> void post(F&& f) {
        QMetaObject::invokeMethod(owner_, std::forward<F>(f), Qt::QueuedConnection);
    }
    void send(std::shared_ptr<TraceEvents> ev, qint64 total) {
        const qint64 bytes = parser_->bytes(), lines = qint64(parser_->lines());
        const quint64 gen = gen_;
        std::shared_ptr<const TraceEvents> c = std::move(ev);
        post(
            [o = owner_, c, bytes, lines, total, gen] { o->deliver(c, bytes, lines, total, gen); });
    }

    TraceImporter* owner_;
    std::unique_ptr<ts::dump::Parser> parser_;
    std::unique_ptr<QFile> file_;
    QString path_;
    qint64 offset_ = 0;
    quint64 gen_ = 0;
    QFileSystemWatcher* watcher_ = nullptr;
    QTimer* timer_ = nullptr;
};

TraceImporter::TraceImporter(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const tsw::TraceEvents>>();
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("trace-import"));
    worker_ = new TraceWorker(this);
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_->start();
}

TraceImporter::~TraceImporter() {
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(2000);
    }
    thread_->quit();
    thread_->wait();
}

void TraceImporter::startGeneration() {
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(2000);
        process_->deleteLater();
        process_ = nullptr;
    }
    ++generation_;
    bytes_ = lines_ = 0;
    cancelled_ = false;
    emit reset();
}

void TraceImporter::openFile(const QString& path, bool follow) {
    startGeneration();
    source_ = path;
    sourceKind_ = Source::File;
    state_ = follow ? State::Following : State::Reading;
    const quint64 gen = generation_;
    QMetaObject::invokeMethod(
        worker_, [w = worker_, path, follow, gen] { w->openFile(path, follow, gen); },
        Qt::QueuedConnection);
}

void TraceImporter::runProcess(const QString& program, const QStringList& args,
                               const QProcessEnvironment& env, const QString& workingDir) {
    startGeneration();
    source_ = program + QLatin1Char(' ') + args.join(QLatin1Char(' '));
    sourceKind_ = Source::Process;
    state_ = State::Running;
    const quint64 gen = generation_;
    QMetaObject::invokeMethod(
        worker_, [w = worker_, gen] { w->start(gen); }, Qt::QueuedConnection);
    process_ = new QProcess(this);
    timedOut_ = false;
    if (!deadline_) {
        deadline_ = new QTimer(this);
        deadline_->setSingleShot(true);
        connect(deadline_, &QTimer::timeout, this, [this] {
            if (!process_ || process_->state() == QProcess::NotRunning) return;
            timedOut_ = true;
            process_->kill(); // finished() follows and reports the timeout
        });
    }
    deadline_->start(std::chrono::seconds(timeoutS_));
    process_->setProcessChannelMode(QProcess::MergedChannels);
    process_->setProcessEnvironment(env);
    if (!workingDir.isEmpty()) process_->setWorkingDirectory(workingDir);
    connect(process_, &QProcess::readyRead, this, [this] {
        const QByteArray data = process_->readAll();
        emit processOutput(QString::fromUtf8(data));
        QMetaObject::invokeMethod(
            worker_, [w = worker_, data] { w->feed(data); }, Qt::QueuedConnection);
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        const QString err = QStringLiteral("cannot start '%1': %2")
                                .arg(process_->program(), process_->errorString());
        QMetaObject::invokeMethod(
            worker_, [w = worker_, err] { w->finish(false, err); }, Qt::QueuedConnection);
    });
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus st) {
        const QByteArray rest = process_->readAll();
        deadline_->stop();
        QString err;
        if (timedOut_)
            err = QStringLiteral("the process did not finish within %1 s and was stopped")
                      .arg(timeoutS_);
        else if (!cancelled_ && st == QProcess::CrashExit)
            err = QStringLiteral("%1 crashed").arg(process_->program());
        else if (!cancelled_ && code != 0)
            err = QStringLiteral("%1 exited with code %2").arg(process_->program()).arg(code);
        const bool cancelled = cancelled_;
        QMetaObject::invokeMethod(
            worker_,
            [w = worker_, rest, cancelled, err] {
                if (!rest.isEmpty()) w->feed(rest);
                w->finish(cancelled, err);
            },
            Qt::QueuedConnection);
    });
    process_->start(program, args);
}

QString TraceImporter::visualizationBootstrap() {
    // Runs a TileLang script with tl.layout_visualization_enable merged into every PassContext,
    // so the layout-visualization pass prints its blocks even if the script does not ask.
    return QStringLiteral(
        "import runpy, sys\n"
        "try:\n"
        "    import tilelang\n"
        "    from tilelang import tvm\n"
        "    _PC = tvm.transform.PassContext\n"
        "    _orig = _PC.__init__\n"
        "    def _init(self, *a, **k):\n"
        "        a = list(a)\n"
        "        if len(a) >= 5:\n"
        "            c = dict(a[4] or {}); c.setdefault('tl.layout_visualization_enable', True); "
        "a[4] = c\n"
        "        else:\n"
        "            c = dict(k.get('config') or {}); "
        "c.setdefault('tl.layout_visualization_enable', True); k['config'] = c\n"
        "        _orig(self, *a, **k)\n"
        "    _PC.__init__ = _init\n"
        "except Exception as e:\n"
        "    print('tilescope: could not enable the layout-visualization pass:', e, "
        "file=sys.stderr)\n"
        "sys.argv = sys.argv[1:]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n");
}

void TraceImporter::runTileLangScript(const QString& python, const QString& script,
                                      const QStringList& scriptArgs) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    QStringList args{QStringLiteral("-u"), QStringLiteral("-c"), visualizationBootstrap(), script};
    args += scriptArgs;
    runProcess(python, args, env, QFileInfo(script).absolutePath());
}

void TraceImporter::feedText(const QByteArray& text) {
    if (state_ != State::Running && state_ != State::Reading) {
        startGeneration();
        source_ = QStringLiteral("(text)");
        sourceKind_ = Source::Text;
        state_ = State::Reading;
        const quint64 gen = generation_;
        QMetaObject::invokeMethod(
            worker_, [w = worker_, gen] { w->start(gen); }, Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(
        worker_, [w = worker_, text] { w->feed(text); }, Qt::QueuedConnection);
}

void TraceImporter::finishText() {
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->finish(false, {}); }, Qt::QueuedConnection);
}

void TraceImporter::cancel() {
    cancelled_ = true;
    if (process_ && process_->state() != QProcess::NotRunning) {
        process_->kill(); // finished() follows and reports cancelled
        return;
    }
    if (state_ == State::Following || state_ == State::Reading) {
        QMetaObject::invokeMethod(
            worker_, [w = worker_] { w->finish(true, {}); }, Qt::QueuedConnection);
    }
}

void TraceImporter::setFollow(bool on) {
    if (sourceKind_ != Source::File) return;
    if (on) {
        if (state_ == State::Following) return;
        // The parser of a finished read has flushed its last block; reading the file again from
        // the start (off the UI thread) gives the same events and then follows the growth.
        const QString path = source_;
        openFile(path, true);
        return;
    }
    if (state_ != State::Following) return;
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->finish(false, {}); }, Qt::QueuedConnection);
}

void TraceImporter::deliver(std::shared_ptr<const TraceEvents> ev, qint64 bytes, qint64 lines,
                            qint64 total, quint64 gen) {
    if (gen != generation_) return;
    bytes_ = bytes;
    lines_ = lines;
    if (!ev->empty()) emit eventsReady(std::move(ev));
    emit progress(bytes, lines, total);
}

void TraceImporter::done(bool cancelled, const QString& error, quint64 gen) {
    if (gen != generation_) return;
    state_ = State::Idle;
    if (process_) {
        process_->deleteLater();
        process_ = nullptr;
    }
    emit finished(cancelled, error);
}

} // namespace tsw
