#pragma once

#include "session/selectionmodel.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>

namespace kscope {

struct Run;

// A result of any analysis, as the session caches it; views cast it back to what they asked for.
using AnyResult = std::shared_ptr<const void>;

// One analysis a view needs: a key naming the analysis and its options ("idle|rank=3|delay=30"),
// and the pure function that computes it from the slice the session hands it.
struct AnalysisRequest {
    QString key;
    std::function<AnyResult(const Run&)> compute;
};

// Wraps an analysis function returning a value into a request.
template <typename Result, typename Compute>
AnalysisRequest analysisRequest(QString key, Compute compute)
{
    return {std::move(key), [compute = std::move(compute)](const Run& run) -> AnyResult {
                return std::make_shared<const Result>(compute(run));
            }};
}

// The one owner of what the GUI shows: the loaded run, its slice for the selected ProfilerStep,
// HTA-compatible mode, the shared selection, per-view options and a cache of analysis results
// keyed by (slice, analysis and options). Each result is computed once on the thread pool,
// however many views show it; results of a run that is no longer open are dropped. Views keep
// no run of their own: they ask the session, so none can show another run's, mode's or step's
// numbers. QtCore only.
class RunSession : public QObject {
    Q_OBJECT
public:
    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;

    // A loaded run replaces the open one. Reopening the same path (a mode toggle, a reload) keeps
    // the selected ranks, step and kernel where the new run has them; another run clears them.
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    std::shared_ptr<const Run> run() const { return m_run; }
    QString runPath() const { return m_runPath; }
    // What views analyse: the run, or its slice for the selected step; null while it is cut.
    std::shared_ptr<const Run> slice() const { return m_slice; }
    // Bumps whenever what views analyse changes (run, mode, step): a view presenting an older
    // generation is stale.
    quint64 sliceGeneration() const { return m_sliceGeneration; }

    bool htaCompat() const { return m_htaCompat; }
    void setHtaCompat(bool on);  // the window reloads the run with HTA's normalisation

    SelectionModel* selection() const { return m_selection; }

    // Per-view analysis options (top-kernel ratio, idle delay, ...), kept across runs.
    QVariant option(const QString& view, const QString& name, const QVariant& fallback = {}) const;
    void setOption(const QString& view, const QString& name, const QVariant& value);

    // The cached result for the current slice, or null after starting its computation (once);
    // resultReady(key) follows when it is there.
    AnyResult request(const AnalysisRequest& request);
    AnyResult cached(const QString& key) const;
    bool isBusy() const { return !m_inFlight.isEmpty() || m_slicing; }
    int computedCount() const { return m_computed; }  // analyses run since start (tests, stats)

signals:
    void runChanged();
    void sliceChanged();  // run, mode or step: every view refreshes
    void htaCompatChanged(bool on);
    void optionsChanged(const QString& view);
    void resultReady(const QString& key);
    void idle();  // nothing in flight any more

private:
    QString sliceKey(const QString& key) const;
    void applyStep();
    void setSlice(std::shared_ptr<const Run> slice);
    void finishJob(const QString& fullKey);

    SelectionModel* m_selection;
    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const Run> m_slice;
    QString m_runPath;
    bool m_htaCompat = false;
    bool m_slicing = false;
    quint64 m_runGeneration = 0;
    quint64 m_sliceGeneration = 0;
    int m_computed = 0;
    QHash<int, std::shared_ptr<const Run>> m_stepSlices;  // cut once per step and run
    QHash<QString, AnyResult> m_results;                   // "step=N|key" of the open run
    QSet<QString> m_inFlight;
    QHash<QString, QVariant> m_options;                    // "view/name"
};

} // namespace kscope
