#pragma once

#include "session/analysisrequest.h"
#include "session/selectionmodel.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QVariant>

#include <array>
#include <functional>
#include <memory>

namespace kscope {

struct Run;

// Which of the two runs single-run views show.
enum class RunSide : int { Control = 0, Test = 1 };

// The one owner of what the GUI shows: the loaded run and, for a comparison, a second one
// beside it (File > Compare With...); the slice of the shown run for the selected ProfilerStep;
// HTA-compatible mode; the shared selection; per-view options; and a cache of analysis results
// keyed by (run, slice, analysis and options). Each result is computed once on the thread pool,
// however many views show it; results of a run that is no longer open are dropped. Views keep
// no run of their own: they ask the session, so none can show another run's, mode's or step's
// numbers. QtCore (and QtConcurrent) only.
class RunSession : public QObject {
    Q_OBJECT
public:
    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;

    // A loaded run replaces the control run. Reopening the same path (a mode toggle, a reload)
    // keeps the selected ranks, step and kernel where the new run has them, and the comparison;
    // another run clears them.
    void setRun(std::shared_ptr<const Run> run, const QString& path);
    // The run compared with the control (null: no comparison).
    void setTestRun(std::shared_ptr<const Run> run, const QString& path);
    void closeComparison() { setTestRun(nullptr, {}); }

    std::shared_ptr<const Run> controlRun() const { return m_sides[0].run; }
    std::shared_ptr<const Run> testRun() const { return m_sides[1].run; }
    QString controlPath() const { return m_sides[0].path; }
    QString testPath() const { return m_sides[1].path; }
    QString label(RunSide side) const;  // the folder's name ("control", "test")

    RunSide shownSide() const { return m_shown; }
    void setShownSide(RunSide side);
    // The run single-run views show, and its path.
    std::shared_ptr<const Run> run() const { return m_sides[int(m_shown)].run; }
    QString runPath() const { return m_sides[int(m_shown)].path; }
    // What views analyse: the shown run, or its slice for the selected step; null while cut.
    std::shared_ptr<const Run> slice() const { return m_slice; }
    // Bumps whenever what views analyse changes (run, side, mode, step): a view presenting an
    // older generation is stale.
    quint64 sliceGeneration() const { return m_sliceGeneration; }

    bool htaCompat() const { return m_htaCompat; }
    void setHtaCompat(bool on);  // the window reloads the runs with HTA's normalisation

    SelectionModel* selection() const { return m_selection; }

    // Per-view analysis options (top-kernel ratio, idle delay, ...), kept across runs.
    QVariant option(const QString& view, const QString& name, const QVariant& fallback = {}) const;
    void setOption(const QString& view, const QString& name, const QVariant& value);

    // The cached result for the current state, or null after starting its computation (once);
    // resultReady(key) follows when it is there. A comparison request without a test run stays null.
    CachedResultPtr request(const AnalysisRequest& request);
    // The result if it is cached for the current state, without starting anything.
    template <typename Result>
    std::shared_ptr<const Result> cached(const Request<Result>& request) const
    {
        return resultAs<Result>(m_results.value(cacheKey(request.erased)));
    }
    // Why the request's analysis failed (it threw: out of memory, a defect), or empty. A failed
    // analysis is not retried for the same state; its view says why instead of computing forever.
    QString failure(const AnalysisRequest& request) const;
    bool isBusy() const { return !m_inFlight.isEmpty() || m_slicing || !m_cutting.isEmpty(); }
    int computedCount() const { return m_computed; }  // analyses run since start (tests, stats)
    // What the session holds: bounded, least recently used first to go.
    static constexpr int kMaxStepSlices = 3;      // per run: the step shown and the two before it
    static constexpr int kMaxCachedResults = 192;  // every view's results of several states
    int stepSliceCount() const { return int(m_sides[0].stepSlices.size() + m_sides[1].stepSlices.size()); }
    int cachedResultCount() const { return int(m_results.size()); }

signals:
    void runChanged();         // the control run
    void comparisonChanged();  // a test run opened or closed
    void sliceChanged();       // run, side, mode or step: every view refreshes
    void htaCompatChanged(bool on);
    void optionsChanged(const QString& view);
    void resultReady(const QString& key);
    void idle();  // nothing in flight any more

private:
    struct Outcome {
        CachedResultPtr result;
        QString error;  // set when result is null
    };
    static Outcome guarded(const std::function<CachedResultPtr()>& compute);
    static Outcome timed(const QString& key, const std::function<CachedResultPtr()>& compute);  // guarded, logged at debug

    struct Side {
        std::shared_ptr<const Run> run;
        QString path;
        quint64 generation = 0;
        QHash<int, std::shared_ptr<const Run>> stepSlices;  // cut once per step, kMaxStepSlices at most
        QList<int> stepsByUse;                               // least recently shown first
    };

    QString cacheKey(const AnalysisRequest& request) const;
    QString cacheKey(const QString& key, bool comparison) const;
    // `before`: the run shown until now, whose rank indices the selection holds.
    void showRun(RunSide side, bool keepSelection, const std::shared_ptr<const Run>& before);
    void dropStaleResults();
    void protectInputs() const;  // no export may replace a trace of the open runs
    void applyStep();
    void setSlice(std::shared_ptr<const Run> slice);
    void finishJob(const QString& fullKey, const QString& key);
    void keepStepSlice(Side& side, int step, std::shared_ptr<const Run> slice);
    void keepResult(const QString& fullKey, CachedResultPtr result);

    SelectionModel* m_selection;
    std::array<Side, 2> m_sides;
    // Each side's generation as analyses on the thread pool read it: one queued for a run that
    // was replaced before it started is not run (a progressive load replaces its snapshots).
    struct LiveGenerations;
    std::shared_ptr<LiveGenerations> m_live;
    RunSide m_shown = RunSide::Control;
    std::shared_ptr<const Run> m_slice;
    bool m_htaCompat = false;
    bool m_slicing = false;
    quint64 m_nextGeneration = 0;
    quint64 m_sliceGeneration = 0;
    int m_computed = 0;
    QHash<QString, CachedResultPtr> m_results;  // "<side generation>|step=N|key" or "cmp|<gen>|<gen>|key"
    QHash<QString, quint64> m_lastUse;           // same keys: when the result was last asked for
    quint64 m_useClock = 0;
    QHash<QString, QString> m_failures;   // same keys: what the analysis threw
    QSet<QString> m_inFlight;
    QSet<QString> m_cutting;  // step slices being cut: "<side generation>|<step>"
    QHash<QString, QVariant> m_options;  // "view/name"
};

} // namespace kscope
