#include "shell/loadcontroller.h"

#ifndef Q_MOC_RUN
#include "model/loader.h"
#endif

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <mutex>
#include <stop_token>

namespace kscope {

struct LoadController::Job {
    QString path;
    LoadProgress progress;
    std::stop_source stop;
    ProgressiveLoad progressive;
    // The newest snapshot a loader thread delivered, taken by poll() on the GUI thread.
    std::mutex partialMutex;
    std::shared_ptr<Run> partial;
};

LoadController::LoadController(QObject* parent) : QObject(parent)
{
    m_pollTimer.setInterval(100);
    connect(&m_pollTimer, &QTimer::timeout, this, &LoadController::poll);
}

LoadController::~LoadController()
{
    // The worker holds its own reference to the job; asking it to stop is enough.
    cancel();
}

void LoadController::setProgressiveTiming(double firstAfterSeconds, double minIntervalSeconds)
{
    m_firstSnapshotAfter = firstAfterSeconds;
    m_snapshotInterval = minIntervalSeconds;
}

bool LoadController::isLoading() const { return m_job != nullptr; }
QString LoadController::path() const { return m_job ? m_job->path : QString(); }

void LoadController::start(const QString& path)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->path = path;
    m_job = job;
    m_clock.start();
    m_pollTimer.start();
    emit started(path);

    auto* watcher = new QFutureWatcher<std::shared_ptr<Run>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        std::shared_ptr<Run> run = watcher->result();
        const bool current = job == m_job;
        const bool wasCancelled = job->stop.stop_requested();
        if (current) {
            m_job.reset();
            m_pollTimer.stop();
        }
        if (wasCancelled || !run) {
            if (current)
                emit cancelled(job->path);
            return;
        }
        if (current)
            emit finished(std::move(run), job->path);
    });
    const std::filesystem::path fsPath = path.toStdString();
    LoadOptions options;
    options.htaCompat = m_htaCompat;
    const bool progressive = m_progressive;
    if (progressive) {
        job->progressive.firstAfterSeconds = m_firstSnapshotAfter;
        job->progressive.minIntervalSeconds = m_snapshotInterval;
        // Into the job, which the worker holds (a cancelled load's worker may outlive the
        // controller); then the GUI thread polls at once, so a snapshot is shown before the load's
        // end (queued before it) rather than at the timer's next tick.
        Job* owner = job.get();
        const QPointer<LoadController> controller(this);
        job->progressive.deliver = [owner, controller](std::shared_ptr<Run> snapshot) {
            {
                const std::lock_guard lock(owner->partialMutex);
                owner->partial = std::move(snapshot);
            }
            QMetaObject::invokeMethod(
                QCoreApplication::instance(), [controller] { if (controller) controller->poll(); }, Qt::QueuedConnection);
        };
    }
    watcher->setFuture(QtConcurrent::run([job, fsPath, options, progressive] {
        return loadRun(fsPath, options, &job->progress, job->stop.get_token(),
                       progressive ? &job->progressive : nullptr);
    }));
}

void LoadController::cancel()
{
    if (!m_job)
        return;
    std::shared_ptr<Job> job = std::move(m_job);
    job->stop.request_stop();
    m_pollTimer.stop();
    emit cancelled(job->path);
}

void LoadController::poll()
{
    if (!m_job)
        return;
    std::shared_ptr<Run> snapshot;
    {
        const std::lock_guard lock(m_job->partialMutex);
        snapshot = std::move(m_job->partial);
    }
    if (snapshot)
        emit partial(std::move(snapshot), m_job->path);
    if (!m_job)
        return;  // a slot of partial() started another load or cancelled this one
    const LoadProgress& p = m_job->progress;
    LoadStatus status;
    status.filesDone = p.filesDone.load(std::memory_order_relaxed);
    status.filesTotal = p.filesTotal.load(std::memory_order_relaxed);
    status.bytesDone = p.bytesDone.load(std::memory_order_relaxed);
    status.bytesTotal = p.bytesTotal.load(std::memory_order_relaxed);
    status.eventsDone = p.eventsDone.load(std::memory_order_relaxed);
    const double elapsed = m_clock.elapsed() / 1000.0;
    if (status.bytesDone > 0 && status.bytesTotal >= status.bytesDone && elapsed > 0.3)
        status.etaSeconds = elapsed * double(status.bytesTotal - status.bytesDone) / double(status.bytesDone);
    emit progress(status);
}

} // namespace kscope
