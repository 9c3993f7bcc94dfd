#pragma once

#include "session/runsession.h"
#include "views/viewspec.h"

#include "analysis/resulttable.h"
#include "analysis/core/tracehealth.h"
#include "analysis/patterns/steps.h"

#include <QHash>
#include <QImage>
#include <QList>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;

namespace kscope {

class ChartView;
struct BarChartData;
class ResultTableView;

// The results a view asked for, all of the session's current slice, read back by the requests
// that asked for them (typed: a result of another type is an error, not a cast).
class ResultSet {
public:
    void insert(const QString& key, CachedResultPtr result) { m_results.insert(key, std::move(result)); }
    template <typename Result>
    const Result& get(const Request<Result>& request) const
    {
        const std::shared_ptr<const Result> result = share(request);
        if (!result)
            throw std::logic_error("no result for " + request.key().toStdString());
        return *result;
    }
    template <typename Result>
    std::shared_ptr<const Result> share(const Request<Result>& request) const
    {
        return resultAs<Result>(m_results.value(request.key()));
    }
    bool isEmpty() const { return m_results.isEmpty(); }

private:
    QHash<QString, CachedResultPtr> m_results;
};

// A table a view exports: its file stem and the rows (Export All, File > Export Table).
struct TableExport {
    QString name;
    Table table;
    // The column of kernel (or op) names whose short names the export carries beside them; empty:
    // that of the view's table whose export name begins this one's, if it has one.
    QString shortNameColumn = {};
};

// A drawing that is not a chart (the timeline), as Export All writes it: name.png.
struct PictureExport {
    QString name;
    QImage image;
};

// A dock's content. The life cycle every view shares lives here: on a new run, mode, step or
// option (and the selection changes its spec follows) it asks the session for its requests();
// while any is missing every chart and table says "Computing…"; when all are there, present()
// draws them. A view keeps nothing between two presentations, so it cannot show numbers of
// another run, mode or step; tables() is empty unless what is on screen is current.
class AnalysisView : public QWidget {
    Q_OBJECT
public:
    AnalysisView(const ViewSpec& spec, RunSession* session, QWidget* parent);

    const ViewSpec& spec() const { return m_spec; }
    QString id() const { return m_spec.id; }
    QString title() const;
    RunSession* session() const { return m_session; }
    // Showing the results of the session's current slice and options (or a final message).
    bool isCurrent() const;
    bool isBusy() const { return !isCurrent(); }
    quint64 presentedGeneration() const { return m_presentedGeneration; }
    QList<ChartView*> charts() const { return m_charts; }
    QList<ResultTableView*> tableViews() const { return m_tableViews; }
    // The tables behind what is on screen (the CLI's columns); empty unless current.
    QList<TableExport> tables() const;

    // Whether the user can see the view (its dock open and its tab in front; the window tells,
    // from QDockWidget::visibilityChanged). Out of sight, it does not compute on a progressive
    // load's snapshot until it is brought on screen.
    void setOnScreen(bool on);

public slots:
    void refresh();

signals:
    void presented();                   // a result (or a final message) reached the screen
    void rankClicked(RankIndex rank);   // the user picked a rank here (the window raises drill targets)
    void kernelPicked(quint32 kernel);  // the user picked a kernel here
    void viewRequested(const QString& id);  // "Show on timeline" and the like: the window raises it

protected:
    // What this view needs for the session's current state; may depend on results already cached
    // (a drill-down's second step), so it is asked again whenever one arrives.
    virtual QList<AnalysisRequest> requests() const = 0;
    virtual void present(const ResultSet& results) = 0;
    // Every chart and table shows the message instead of a result.
    virtual void showMessage(const QString& message);
    // A selection change this view does not recompute for: re-highlight only.
    virtual void highlightSelection() {}
    virtual QList<TableExport> currentTables() const { return {}; }
public:
    // Drawings besides the charts, of the current state only (empty while computing), at least
    // `minimum` large, as exported charts are.
    virtual QList<PictureExport> pictures(QSize minimum) const
    {
        Q_UNUSED(minimum);
        return {};
    }

protected:
    // Whether currentTables() has something to export while a message is on screen (import
    // issues say why a run has no usable rank).
    virtual bool hasTablesWithoutResult() const { return false; }

    // The charts and tables the view shows, in the order Export All writes them.
    void addCharts(std::initializer_list<ChartView*> charts);
    void addTableViews(std::initializer_list<ResultTableView*> tables);
    // Selection writes from clicks: the session's selection, plus the drill signal.
    void clickRank(RankIndex rank);
    // A click on a per-rank chart, whose ids are RankIndex values (see rankChartIds()).
    void clickRankId(int id) { clickRank(RankIndex{static_cast<uint32_t>(id)}); }
    void pickKernel(quint32 kernel, const QString& name);
    // Brings another view to the front (after setting the selection it should show).
    void showInView(const QString& id) { emit viewRequested(id); }
    // What a "Show on timeline" lands on: an event of the presented slice (its kernel picked too
    // when it is GPU work) and a span in absolute trace time (empty: the event's own span). The
    // timeline zooms to the span and outlines the event.
    void pickOnTimeline(RankIndex rank, EventIndex row, int64_t fromNs = 0, int64_t toNs = 0);
    // A "Show on timeline" button, disabled until the view has chosen something (enable it then).
    QPushButton* timelineButton(const QString& tooltip, std::function<void()> choose);
    // Selects an event by its row in the presented slice (stored as the whole run's row).
    void pickEvent(RankIndex rank, EventIndex row);
    // The selected event's row in the presented slice when it is on `rank` and in the slice;
    // kNoEvent otherwise.
    EventIndex selectedEventRow(RankIndex rank) const;
    SelectionModel* selection() const { return m_session->selection(); }
    // The rank a single-rank view shows: the selected one if the slice has it, else the first
    // (HTA's default is rank 0); the first without a slice.
    RankIndex shownRank() const;
    // Every selected rank the slice has, in the order they were selected (the shown rank first),
    // for views that can show several side by side; the shown rank alone when none is selected.
    QList<RankIndex> shownRanks() const;
    // How the shown rank is named: its number, and its file where two files claim the number.
    QString shownRankName() const;
    // The shown rank in an export's file name: "rank3", or "rank3-4" (its position) where two
    // files claim 3.
    QString shownRankTag() const;
    // The slice the presented results belong to (valid in present()).
    const Run& slice() const { return *m_session->slice(); }
    // For per-rank charts: "Hatched: rank 3 read only to byte 1,234 (truncated) · Not shown:
    // rank4.json could not be read (see Import issues)".
    QString failedRanksNote() const;
    // Ranks whose file was read only up to an error: they cover part of the trace.
    QList<RankIndex> partialRanks() const;
    // A per-rank chart after drawing: partial ranks hatched, the selection highlighted.
    void markRanks(ChartView* chart) const;
    // Draws per-rank bars with the footnote every per-rank chart carries (ranks read in part or
    // not at all, HTA's potential stragglers), then marks the ranks.
    void drawRankBars(ChartView* chart, BarChartData data, const ResultSet& results) const;
    // The mode of the slice requests are computed on (its run was loaded in it).
    bool htaCompat() const;
    // HTA's potential stragglers of the whole shown run, one result shared by every view that
    // marks them, and the footnote that names them.
    Request<Stragglers> stragglersRequest() const;
    QString stragglersNote(const ResultSet& results) const;
    // The shown slice's trace health (analysis/core/tracehealth.h), one result for every view.
    Request<TraceHealth> healthRequest() const;
    QString option(const QString& name, const QVariant& fallback) const;
    double numberOption(const QString& name, double fallback) const;
    bool boolOption(const QString& name, bool fallback) const;
    void setOption(const QString& name, const QVariant& value) { m_session->setOption(id(), name, value); }

private:
    void tryPresent();
    void finishWith(const QString& message);
    // The line over the view naming the health problems that degrade what it shows (those of
    // its spec's commands); asked for beside the view's own results, never waited for.
    void updateHealthLine();

    const ViewSpec& m_spec;
    RunSession* m_session;
    QList<ChartView*> m_charts;
    QList<ResultTableView*> m_tableViews;
    QStringList m_waitingFor;
    bool m_current = false;
    bool m_showingComputing = false;
    bool m_presentedResult = false;  // present() ran for the current state, not only a message
    bool m_onScreen = true;
    bool m_deferredWhileHidden = false;  // a snapshot of a load came while out of sight: compute when shown
    quint64 m_presentedGeneration = 0;
    QLabel* m_healthLine = nullptr;  // made on the first problem to show
};

} // namespace kscope
