// SPDX-License-Identifier: Apache-2.0
// LatestJob<R>: background work of which only the newest request matters (evaluating the text
// being typed, analysing the layout being edited).
//
// One job runs at a time on the global thread pool. Submitting while one runs puts the new job in
// the queue in place of any job already waiting, so a burst of keystrokes costs at most the
// running job plus the last one. A job finishing after a newer submission is dropped without a
// callback, and its token reports cancelled() so it can stop at its next checkpoint. Callbacks
// run on the thread that owns the LatestJob (the UI thread); destroying it drops every pending
// callback (a running job finishes in the pool and its result is discarded).
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace tsw {

// Lets a job see that a newer request superseded it.
class CancelToken {
public:
    CancelToken() = default;
    CancelToken(std::shared_ptr<const std::atomic<quint64>> latest, quint64 gen)
        : latest_(std::move(latest)), gen_(gen) {}
    bool cancelled() const { return latest_ && latest_->load() != gen_; }
    quint64 generation() const { return gen_; }

private:
    std::shared_ptr<const std::atomic<quint64>> latest_;
    quint64 gen_ = 0;
};

template <class R> class LatestJob {
public:
    using Work = std::function<R(const CancelToken&)>;
    using Done = std::function<void(quint64 generation, R result)>;

    LatestJob() : latest_(std::make_shared<std::atomic<quint64>>(0)), ctx_(new QObject) {}
    ~LatestJob() {
        latest_->store(kNone); // every running job is superseded
        delete ctx_;           // its watchers, so no callback reaches a dead owner
    }
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;

    // `gen` grows with every submission (a ResultState's or the caller's counter). `superseded`,
    // when given, receives the result of this job if it finishes after a newer submission (to
    // keep as a cache, never to show).
    void submit(quint64 gen, Work work, Done done, Done superseded = {}) {
        latest_->store(gen);
        Job job{gen, std::move(work), std::move(done), std::move(superseded)};
        if (running_) {
            queued_ = std::move(job);
            return;
        }
        start(std::move(job));
    }
    // Drops the queued job and the result of the running one.
    void cancel() {
        latest_->store(kNone);
        queued_.reset();
    }
    bool busy() const { return running_ || queued_.has_value(); }
    bool running() const { return running_; }

private:
    static constexpr quint64 kNone = ~quint64(0); // no generation is the newest
    struct Job {
        quint64 gen;
        Work work;
        Done done, superseded;
    };

    void start(Job job) {
        running_ = true;
        auto* watcher = new QFutureWatcher<R>(ctx_);
        const quint64 gen = job.gen;
        QObject::connect(watcher, &QFutureWatcherBase::finished, ctx_,
                         [this, watcher, gen, done = std::move(job.done),
                          superseded = std::move(job.superseded)] {
                             R result = watcher->result();
                             watcher->deleteLater();
                             running_ = false;
                             if (gen == latest_->load())
                                 done(gen, std::move(result));
                             else if (superseded)
                                 superseded(gen, std::move(result));
                             if (queued_) {
                                 Job next = std::move(*queued_);
                                 queued_.reset();
                                 start(std::move(next));
                             }
                         });
        CancelToken token(latest_, gen);
        watcher->setFuture(
            QtConcurrent::run([work = std::move(job.work), token] { return work(token); }));
    }

    std::shared_ptr<std::atomic<quint64>> latest_;
    QObject* ctx_;
    bool running_ = false;
    std::optional<Job> queued_;
};

} // namespace tsw
