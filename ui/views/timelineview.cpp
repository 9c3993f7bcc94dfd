// The timeline (analysis/timeline/timelineindex.h): every rank of what is shown on one time axis,
// its GPU streams, annotation lanes and CPU threads by call depth. It follows the session's
// selection without computing again: the selected event is outlined, the selected time span shaded
// and brought into view (a critical-path segment, a collective instance); a click selects the
// event under the cursor, Shift+drag selects a time span, which the Events view follows.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttableview.h"
#include "plots/timelinewidget.h"

#include "analysis/collectives/collectives.h"
#include "analysis/criticalpath/criticalpath.h"
#include "analysis/tables/timelinetables.h"
#include "analysis/timeline/spansummary.h"
#include "analysis/timeline/timelineindex.h"
#include "analysis/timeline/timelinesearch.h"
#include "analysis/timeline/timelinetracks.h"
#include "model/trace.h"

#include <QAction>
#include <QMenu>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QToolButton>

#include <unordered_map>

namespace kscope {

namespace {

const QString kCpuThreads = QStringLiteral("cpu-threads");  // open every rank's CPU threads
const QString kFind = QStringLiteral("find");               // a name regex to step through
const QString kCounters = QStringLiteral("counters");       // counter tracks under each rank
const QString kPath = QStringLiteral("critical-path");      // the step's critical path drawn
const QString kAlign = QStringLiteral("align-steps");       // ranks shifted to start a step together
const QString kAlignClocks = QStringLiteral("align-clocks"); // ranks moved onto the reference rank's clock
const QString kRows = QStringLiteral("rows");               // the row filter as typed

class TimelineView : public AnalysisView {
public:
    TimelineView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_tracks(new QToolButton(this)), m_cpuThreads(new QAction(tr("CPU threads"), this)),
          m_counters(new QAction(tr("Counter tracks"), this)), m_path(new QAction(tr("Critical path"), this)),
          m_align(new QAction(tr("Align ranks at step start"), this)),
          m_alignClocks(new QAction(tr("Align rank clocks (offsets read from collectives)"), this)), m_rows(new QLineEdit(this)), m_find(new QLineEdit(this)),
          m_previous(new QToolButton(this)), m_next(new QToolButton(this)), m_found(new QLabel(this)),
          m_timeline(new TimelineWidget(this)),
          m_spanCaption(new QLabel(this)), m_span(new ResultTableView(QStringLiteral("timeline-span"), this))
    {
        makeCaption(m_caption, false);
        makeCaption(m_spanCaption, false);
        m_cpuThreads->setToolTip(tr("Show every rank's CPU threads, one row per call depth (a rank's \"CPU threads\" line opens one)"));
        m_counters->setToolTip(tr("Under each rank: launch queue length per stream, memcpy bandwidth and allocated memory (the Queue and Memory views' results)"));
        m_path->setToolTip(tr("The step's critical path across ranks (the Critical path view's, first step of what is shown), drawn as a chain"));
        m_align->setToolTip(tr("Shift each rank so one ProfilerStep starts at the same time on all (a span dragged on a rank is read on its clock)"));
        m_alignClocks->setToolTip(tr("Move each rank onto the reference rank's clock by the offset clock-skew estimates from "
                                     "the collectives' ends, so that arrivals and waits read across ranks are the ranks', "
                                     "not their clocks'"));
        m_rows->setPlaceholderText(tr("Rows, e.g. 0-3 s7 t12"));
        m_rows->setToolTip(tr("Ranks to show (0-3,7), GPU streams (s7 s20), CPU threads by tid (t4037); empty: all"));
        m_rows->setClearButtonEnabled(true);
        m_rows->setMaximumWidth(120);
        // The tracks' toggles in one menu: the control row must fit a narrow dock.
        m_tracks->setText(tr("Show"));
        m_tracks->setToolTip(tr("CPU threads, counter tracks, the critical path, ranks aligned at step start or on one clock"));
        m_tracks->setPopupMode(QToolButton::InstantPopup);
        auto* menu = new QMenu(m_tracks);
        for (QAction* toggle : {m_cpuThreads, m_counters, m_path, m_align, m_alignClocks}) {
            toggle->setCheckable(true);
            menu->addAction(toggle);
        }
        menu->setToolTipsVisible(true);
        m_tracks->setMenu(menu);
        m_span->setNameColumn(QStringLiteral("name"));
        m_span->setMinimumHeight(40);
        m_span->sortByColumn(3, Qt::DescendingOrder);  // the most time inside the span first
        m_spanBox = stackedBox(this, {m_spanCaption}, m_span);
        m_spanBox->hide();  // until a span is selected
        m_find->setPlaceholderText(tr("Find (name regex)"));
        m_find->setClearButtonEnabled(true);
        m_find->setMaximumWidth(220);
        m_previous->setText(QStringLiteral("◀"));
        m_previous->setToolTip(tr("Previous match"));
        m_next->setText(QStringLiteral("▶"));
        m_next->setToolTip(tr("Next match (from the window's start)"));
        setPage(this, {controlRow(this, {m_caption, m_find, m_previous, m_next, m_found, m_rows, m_tracks})},
                splitOf(this, Qt::Vertical, {m_timeline, m_spanBox}, {4, 1}));
        connect(m_find, &QLineEdit::editingFinished, this, [this] { setOption(kFind, m_find->text()); });
        connect(m_next, &QToolButton::clicked, this, [this] { stepMatch(+1); });
        connect(m_previous, &QToolButton::clicked, this, [this] { stepMatch(-1); });
        addTableViews({m_span});
        connect(m_span, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0)
                pickKernel(id, fmt::qstr(slice().str(StringId{id})));
        });
        connect(m_cpuThreads, &QAction::toggled, this, [this](bool on) { setOption(kCpuThreads, on); });
        connect(m_counters, &QAction::toggled, this, [this](bool on) { setOption(kCounters, on); });
        connect(m_path, &QAction::toggled, this, [this](bool on) { setOption(kPath, on); });
        // Two ways of shifting ranks: one at a time.
        connect(m_align, &QAction::toggled, this, [this](bool on) {
            if (on)
                setOption(kAlignClocks, false);
            setOption(kAlign, on);
        });
        connect(m_alignClocks, &QAction::toggled, this, [this](bool on) {
            if (on)
                setOption(kAlign, false);
            setOption(kAlignClocks, on);
        });
        connect(m_rows, &QLineEdit::editingFinished, this, [this] { setOption(kRows, m_rows->text()); });
        m_timeline->setHoverNote([this](EventRef event) { return collectiveNote(event); });
        connect(m_timeline, &TimelineWidget::windowChanged, this, &TimelineView::updateCaption);
        connect(m_timeline, &TimelineWidget::eventClicked, this, [this](quint32 rank, qint32 row) {
            const RankIndex index{rank};
            if (!slice().has(index) || row < 0 || size_t(row) >= slice().at(index).events.size())
                return;
            const EventTable& t = slice().at(index).events;
            if (t.kind[row] == EventKind::Kernel || t.kind[row] == EventKind::Memcpy || t.kind[row] == EventKind::Memset)
                pickKernel(t.name[row].value, fmt::qstr(slice().str(t.name[row])));
            pickEvent(index, row);
        });
        connect(m_timeline, &TimelineWidget::rangeSelected, this,
                [this](qint64 from, qint64 to) {
                    m_lastRange = {from, to};
                    selection()->setTimeRange(m_lastRange);
                });
        refresh();
    }

protected:
    Request<TimelineIndex> indexRequest() const
    {
        return analysisRequest("timeline-index", NoOptions{}, [](const Run& run, NoOptions) { return buildTimelineIndex(run); });
    }
    // What lies inside the selected span (none selected: nothing to sum).
    Request<SpanSummary> spanRequest() const
    {
        const TimeRange range = selection()->timeRange();
        return analysisRequest("timeline-span", SpanSummaryOptions{range.beginNs, range.endNs}, summarizeSpan);
    }
    Request<TimelineSearch> searchRequest() const
    {
        return analysisRequest("timeline-find", TimelineSearchOptions{option(kFind, QString()).toStdString()}, searchTimeline);
    }
    // The Collectives view's result (one cache entry for both): a selected collective kernel is
    // shown with its instance on every rank.
    Request<Collectives> collectivesRequest() const
    {
        return analysisRequest("collectives", CollectiveOptions{.htaCompat = htaCompat()}, matchCollectives);
    }
    // The counter tracks' results, every rank.
    Request<QueueLength> queueRequest() const
    {
        return analysisRequest("queue", QueueLengthOptions{.htaCompat = htaCompat()}, queueLength);
    }
    Request<MemoryBandwidth> bandwidthRequest() const
    {
        return analysisRequest("memory-bw", MemoryBandwidthOptions{.htaCompat = htaCompat()}, memoryBandwidth);
    }
    Request<MemoryTimeline> memoryRequest() const
    {
        MemoryOptions options;
        options.perOp = false;
        options.topUnfreed = 0;
        return analysisRequest("memory", options, memoryTimeline);
    }
    // The Critical path view's path across ranks in its default window (one cache entry for both).
    Request<CrossRankPath> pathRequest() const
    {
        CriticalPathOptions options;
        options.htaCompat = htaCompat();
        options.alignClocks = boolOption(kAlignClocks, false);
        return analysisRequest("critical-path-across-ranks", options, criticalPathAllRanks);
    }
    QList<AnalysisRequest> requests() const override
    {
        QList<AnalysisRequest> wanted = {indexRequest(), collectivesRequest()};
        if (boolOption(kCounters, false))
            wanted << queueRequest() << bandwidthRequest() << memoryRequest();
        if (boolOption(kPath, false))
            wanted << pathRequest();
        if (!selection()->timeRange().isEmpty())
            wanted << spanRequest();
        if (!option(kFind, QString()).isEmpty())
            wanted << searchRequest();
        return wanted;
    }

    void present(const ResultSet& results) override
    {
        const bool cpu = boolOption(kCpuThreads, false);
        {
            const QSignalBlocker a(m_cpuThreads), b(m_counters), c(m_path), d(m_align), e(m_rows), f(m_alignClocks);
            m_cpuThreads->setChecked(cpu);
            m_counters->setChecked(boolOption(kCounters, false));
            m_path->setChecked(boolOption(kPath, false));
            m_align->setChecked(boolOption(kAlign, false));
            m_alignClocks->setChecked(boolOption(kAlignClocks, false));
            m_rows->setText(option(kRows, QString()));
        }
        m_index = results.share(indexRequest());
        m_collectives = results.share(collectivesRequest());
        m_instanceOfKernel.clear();
        for (size_t i = 0; i < m_collectives->instances.size(); ++i) {
            const CollectiveInstance& in = m_collectives->instances[i];
            for (uint32_t a = in.firstArrival; a < in.firstArrival + in.arrivalCount; ++a)
                m_instanceOfKernel[kernelKey(RankIndex{m_collectives->arrivals[a].rankIndex}, m_collectives->arrivals[a].kernel)] = uint32_t(i);
        }
        m_timeline->setData(session()->slice(), m_index);
        presentRows(results);
        presentSearch(results);
        // The checkbox opens or closes every rank's threads when it changes; a rank opened by
        // hand stays open through a new span, step or search.
        if (m_cpuApplied != cpu)
            m_timeline->setCpuThreadsShownEverywhere(cpu);
        m_cpuApplied = cpu;
        if (selection()->timeRange().isEmpty()) {
            m_spanResult.reset();
            m_span->setTable(std::make_shared<Table>());
            m_spanBox->hide();
        } else {
            m_spanBox->show();
            m_spanResult = results.share(spanRequest());
            QVector<quint32> ids;
            for (const SpanSummaryRow& row : m_spanResult->rows)
                ids.push_back(row.name.value);
            m_span->setTable(std::make_shared<Table>(spanSummaryTable(slice(), *m_spanResult)), ids);
            const TimeRange range = selection()->timeRange();
            m_spanCaption->setText(tr("<b>Inside %1 to %2</b> (%3): %4 GPU events, every rank")
                                       .arg(fmt::duration(double(range.beginNs)), fmt::duration(double(range.endNs)),
                                            fmt::duration(double(range.endNs - range.beginNs)))
                                       .arg(QLocale().toString(qint64(m_spanResult->events))));
        }
        highlightSelection();
        updateCaption();
    }

    QList<TableExport> currentTables() const override
    {
        if (!m_spanResult)
            return {};
        return {{QStringLiteral("timeline-span"), spanSummaryTable(slice(), *m_spanResult)}};
    }

    void highlightSelection() override
    {
        if (!m_index)
            return;
        std::optional<EventRef> shown;
        if (const std::optional<EventRef> event = selection()->event())
            if (const EventIndex row = selectedEventRow(event->rank); row != kNoEvent)
                shown = EventRef{event->rank, row};
        m_timeline->setSelectedEvent(shown);
        markCollective(shown);
        const TimeRange range = selection()->timeRange();
        m_timeline->setTimeRange(range.beginNs, range.endNs);
        // A span chosen elsewhere (a segment, a collective, "Show on timeline") is zoomed to, its
        // rank's rows scrolled into view (the selected event's, else the first selected rank's);
        // one dragged out here stays as the user framed it.
        if (!range.isEmpty() && range != m_lastRange) {
            m_timeline->showSpan(range.beginNs, range.endNs);
            if (shown)
                m_timeline->revealRank(shown->rank);
            else if (!selection()->ranks().isEmpty())
                m_timeline->revealRank(selection()->ranks().front());
        }
        m_lastRange = range;
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_pathText.clear();
        m_rowsText.clear();
        m_pathShown = false;
        m_index.reset();
        m_collectives.reset();
        m_spanResult.reset();
        m_search.reset();
        m_instanceOfKernel.clear();
        m_spanBox->hide();
        m_timeline->clear(message);
        m_caption->setText(message);
    }

public:
    QList<PictureExport> pictures(QSize minimum) const override
    {
        if (!isCurrent() || !m_index || !m_timeline->message().isEmpty())
            return {};
        return {{QStringLiteral("timeline"), m_timeline->toImage(minimum)}};
    }

private:
    // What the row filter, the counters, the alignment and the critical path add to the rows.
    void presentRows(const ResultSet& results)
    {
        const ParsedRowFilter rows = parseTimelineRowFilter(option(kRows, QString()).toStdString());
        m_timeline->setRowFilter(rows.filter);
        m_rows->setStyleSheet(rows.error.empty() ? QString() : QStringLiteral("QLineEdit { color: #b00020; }"));
        m_rows->setToolTip(rows.error.empty() ? tr("Ranks to show (0-3,7), GPU streams (s7 s20), CPU threads by tid (t4037); empty: all")
                                              : tr("Not read: %1").arg(fmt::qstr(rows.error)));
        m_rowsText = !rows.error.empty() ? tr(" · rows filter not read: %1").arg(fmt::qstr(rows.error).toHtmlEscaped())
                     : !rows.filter.empty() && m_timeline->lineCount() == 0 ? tr(" · no rank or stream matches the rows filter")
                                                                             : QString();
        if (boolOption(kCounters, false)) {
            const auto queue = results.share(queueRequest());
            const auto bandwidth = results.share(bandwidthRequest());
            const auto memory = results.share(memoryRequest());
            m_timeline->setCounterTracks(std::make_shared<const std::vector<CounterTrack>>(
                timelineCounterTracks(slice(), queue.get(), bandwidth.get(), memory.get())));
        } else {
            m_timeline->setCounterTracks(nullptr);
        }
        std::vector<qint64> shifts;
        if (boolOption(kAlign, false))
            for (int64_t shift : stepStartShifts(slice()))
                shifts.push_back(shift);
        m_clockText.clear();
        if (boolOption(kAlignClocks, false)) {
            const ClockSkew& skew = m_collectives->clockSkew;
            shifts.assign(slice().ranks.size(), 0);
            for (const RankClockOffset& offset : skew.ranks)
                if (offset.estimated && offset.rankIndex < shifts.size())
                    shifts[offset.rankIndex] = offset.offsetNs;
            m_clockText = skew.referenceRank >= 0
                              ? tr(" · clocks aligned on rank %1's (largest offset %2)")
                                    .arg(skew.referenceRank)
                                    .arg(fmt::duration(double(skew.largestOffsetNs)))
                              : tr(" · clocks not aligned: %1").arg(fmt::qstr(skew.error).toHtmlEscaped());
        }
        const std::vector<qint64> markShifts = boolOption(kAlignClocks, false) ? shifts : std::vector<qint64>{};
        m_timeline->setRankShifts(std::move(shifts));
        m_pathText.clear();
        std::vector<TimelineWidget::PathMark> marks;
        if (boolOption(kPath, false)) {
            const auto path = results.share(pathRequest());
            const qint64 origin = slice().minTsNs;
            if (!path->error.empty())
                m_pathText = tr(" · no critical path: %1").arg(fmt::qstr(path->error).toHtmlEscaped());
            else {
                for (const CrossRankSegment& segment : path->segments) {
                    // Aligned, the path's times are on the reference clock; marks are on the rank's
                    // own, which the timeline shifts.
                    const qint64 own = segment.rankIndex.value < markShifts.size() ? markShifts[segment.rankIndex.value] : 0;
                    if (segment.durationNs > 0 || segment.event != kNoEvent)
                        marks.push_back({segment.rankIndex, segment.event, segment.startNs + own - origin,
                                         segment.startNs + own + segment.durationNs - origin});
                }
                m_pathText = tr(" · critical path %1 over %2 segments").arg(fmt::duration(double(path->lengthNs))).arg(marks.size());
            }
        }
        // Turned on: brought into view (later frames keep the user's window).
        const bool newlyDrawn = !marks.empty() && !m_pathShown;
        m_pathShown = !marks.empty();
        const std::optional<std::pair<qint64, qint64>> extent =
            newlyDrawn ? std::optional(std::pair(marks.front().startNs, marks.back().endNs)) : std::nullopt;
        m_timeline->setPathMarks(std::move(marks));
        if (extent)
            m_timeline->showSpan(extent->first, extent->second);
    }

    // A collective kernel's instance, for its tooltip.
    QString collectiveNote(EventRef event) const
    {
        if (!m_collectives)
            return {};
        const auto it = m_instanceOfKernel.find(kernelKey(event.rank, event.event));
        if (it == m_instanceOfKernel.end())
            return {};
        const CollectiveInstance& in = m_collectives->instances[it->second];
        const CollectiveGroup& group = m_collectives->groups[in.group];
        const QString groupName = group.name ? fmt::qstr(slice().str(group.name)).toHtmlEscaped() : tr("(unnamed group)");
        QString text = tr("<b>%1</b>, process group %2, Seq %3").arg(fmt::qstr(in.name).toHtmlEscaped(), groupName).arg(in.seq);
        if (in.bytes >= 0)
            text += tr(", %1").arg(fmt::bytes(uint64_t(in.bytes)));
        for (uint32_t a = in.firstArrival; a < in.firstArrival + in.arrivalCount; ++a) {
            const CollectiveArrival& arrival = m_collectives->arrivals[a];
            if (RankIndex{arrival.rankIndex} != event.rank || arrival.kernel != event.event)
                continue;
            if (in.arrivalCount < 2)
                text += tr("<br>no other rank's part of it is in the run");
            else if (arrival.waitNs > 0)
                text += tr("<br>waited %1 for rank %2 (last of %3)").arg(fmt::duration(double(arrival.waitNs))).arg(in.lastRank).arg(in.arrivalCount);
            else
                text += tr("<br>arrived last of %1 ranks").arg(in.arrivalCount);
        }
        return text;
    }

    static quint64 kernelKey(RankIndex rank, EventIndex kernel) { return (quint64(rank.value) << 32) | quint32(kernel); }

    // The selected kernel's collective instance, on every rank that took part.
    void markCollective(std::optional<EventRef> shown)
    {
        std::vector<TimelineWidget::CollectiveMark> marks;
        m_collectiveText.clear();
        if (shown && m_collectives)
            if (const auto it = m_instanceOfKernel.find(kernelKey(shown->rank, shown->event)); it != m_instanceOfKernel.end()) {
                const CollectiveInstance& in = m_collectives->instances[it->second];
                const qint64 origin = slice().minTsNs;
                for (uint32_t a = in.firstArrival; a < in.firstArrival + in.arrivalCount; ++a) {
                    const CollectiveArrival& arrival = m_collectives->arrivals[a];
                    marks.push_back({RankIndex{arrival.rankIndex}, arrival.kernel, arrival.startNs - origin,
                                     arrival.startNs + arrival.waitNs - origin, arrival.endNs - origin});
                }
                m_collectiveText = tr(" · <b>%1</b> on %2 ranks: rank %3 arrived last, %4 after the first")
                                       .arg(fmt::qstr(in.name).toHtmlEscaped())
                                       .arg(in.arrivalCount)
                                       .arg(in.lastRank)
                                       .arg(fmt::duration(double(in.skewNs)));
            }
        m_timeline->setCollectiveMarks(std::move(marks));
        updateCaption();
    }

    void presentSearch(const ResultSet& results)
    {
        const QString pattern = option(kFind, QString());
        {
            const QSignalBlocker blocker(m_find);
            m_find->setText(pattern);
        }
        m_search = pattern.isEmpty() ? nullptr : results.share(searchRequest());
        m_match = -1;
        const bool found = m_search && !m_search->matches.empty();
        m_previous->setEnabled(found);
        m_next->setEnabled(found);
        m_found->setText(!m_search                  ? QString()
                         : !m_search->error.empty() ? tr("bad regex")
                         : m_search->matches.size() == 1 ? tr("1 match")
                                                         : tr("%1 matches").arg(m_search->matches.size()));
        m_found->setToolTip(m_search ? fmt::qstr(m_search->error) : QString());
    }

    // The next (or previous) match: the first from the window's start, then each in turn; zoomed
    // to and selected.
    void stepMatch(int direction)
    {
        if (!m_search || m_search->matches.empty())
            return;
        const std::vector<EventRef>& matches = m_search->matches;
        const auto startOf = [this](const EventRef& m) { return slice().at(m.rank).events.tsNs[m.event] - slice().minTsNs; };
        const int count = int(matches.size());
        if (m_match < 0) {
            const qint64 from = m_timeline->windowFromNs();
            const auto first = std::find_if(matches.begin(), matches.end(), [&](const EventRef& m) { return startOf(m) >= from; });
            m_match = first == matches.end() ? 0 : int(first - matches.begin());
            if (direction < 0)
                m_match = (m_match + count - 1) % count;
        } else {
            m_match = (m_match + direction + count) % count;
        }
        const EventRef match = matches[size_t(m_match)];
        const EventTable& t = slice().at(match.rank).events;
        m_timeline->showEvent(match);
        m_found->setText(tr("%1 of %2").arg(m_match + 1).arg(count));
        if (t.kind[match.event] == EventKind::Kernel || t.kind[match.event] == EventKind::Memcpy || t.kind[match.event] == EventKind::Memset)
            pickKernel(t.name[match.event].value, fmt::qstr(slice().str(t.name[match.event])));
        pickEvent(match.rank, match.event);
    }

    void updateCaption()
    {
        if (!m_index)
            return;
        const qint64 from = m_timeline->windowFromNs(), to = m_timeline->windowToNs();
        m_caption->setText(tr("%1 ranks, %2 events · %3 to %4 (%5) · wheel zooms, drag pans, Shift+drag selects a span, Home: all")
                               .arg(slice().ranks.size())
                               .arg(QLocale().toString(qint64(m_index->events)))
                               .arg(fmt::duration(double(std::max<qint64>(0, from))), fmt::duration(double(to)),
                                    fmt::duration(double(to - from)))
                           + m_collectiveText + m_pathText + m_clockText + m_rowsText);
    }

    QLabel* m_caption;
    QToolButton* m_tracks;
    QAction* m_cpuThreads;
    QAction* m_counters;
    QAction* m_path;
    QAction* m_align;
    QAction* m_alignClocks;
    QString m_clockText;
    QLineEdit* m_rows;
    QLineEdit* m_find;
    QToolButton* m_previous;
    QToolButton* m_next;
    QLabel* m_found;
    TimelineWidget* m_timeline;
    QWidget* m_spanBox;  // the span's caption and table
    QLabel* m_spanCaption;
    ResultTableView* m_span;
    std::shared_ptr<const TimelineIndex> m_index;
    std::shared_ptr<const SpanSummary> m_spanResult;
    std::shared_ptr<const TimelineSearch> m_search;
    std::shared_ptr<const Collectives> m_collectives;
    std::unordered_map<quint64, uint32_t> m_instanceOfKernel;  // (rank, first kernel) -> instance
    QString m_collectiveText;  // the marked instance, for the caption
    QString m_pathText;        // the critical path drawn, for the caption
    bool m_pathShown = false;  // whether the path was drawn last time
    QString m_rowsText;        // a row filter that could not be read
    int m_match = -1;  // the match shown last
    std::optional<bool> m_cpuApplied;  // the checkbox state last applied to the rows
    TimeRange m_lastRange;  // the selection's span last shown
};

} // namespace

ViewFactory timelineView() { return createView<TimelineView>(); }

} // namespace kscope
