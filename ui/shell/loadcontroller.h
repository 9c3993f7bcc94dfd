#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace kscope {

struct Run;

struct LoadStatus {
    quint32 filesDone = 0;
    quint32 filesTotal = 0;
    quint64 bytesDone = 0;   // compressed bytes read
    quint64 bytesTotal = 0;
    quint64 eventsDone = 0;
    double etaSeconds = -1;  // unknown until some bytes are done
};

// Loads a run on a worker thread, reports progress by polling the loader's atomics on a timer
// (no signal floods from workers) and cancels through a stop_source. A new start() cancels the
// load in flight; a cancelled load is discarded whole and the caller keeps its previous run.
// Progressive (setProgressive): while a run of several files loads, the ranks read so far come
// as partial(run) (Run::isPartial), the newest one per poll, before finished() brings the whole.
class LoadController : public QObject {
    Q_OBJECT
public:
    explicit LoadController(QObject* parent = nullptr);
    ~LoadController() override;

    void start(const QString& path);
    void cancel();
    // Load with HTA's normalisation (microsecond rounding) for HTA-compatible numbers.
    void setHtaCompat(bool on) { m_htaCompat = on; }
    bool htaCompat() const { return m_htaCompat; }
    void setProgressive(bool on) { m_progressive = on; }
    // When the first snapshot may come and how often the next (tests make them immediate).
    void setProgressiveTiming(double firstAfterSeconds, double minIntervalSeconds);
    bool isLoading() const;
    QString path() const;

signals:
    void started(const QString& path);
    void progress(const kscope::LoadStatus& status);
    void partial(std::shared_ptr<const kscope::Run> run, const QString& path);
    void finished(std::shared_ptr<const kscope::Run> run, const QString& path);
    void cancelled(const QString& path);

private:
    struct Job;
    void poll();

    std::shared_ptr<Job> m_job;  // shared with the worker: it outlives a cancelled request
    QTimer m_pollTimer;
    QElapsedTimer m_clock;
    bool m_htaCompat = false;
    bool m_progressive = false;
    double m_firstSnapshotAfter = 0.3;
    double m_snapshotInterval = 0.5;
};

} // namespace kscope
