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

#include "analysis/tables/timelinetables.h"
#include "analysis/timeline/spansummary.h"
#include "analysis/timeline/timelineindex.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QLabel>
#include <QLocale>

namespace kscope {

namespace {

const QString kCpuThreads = QStringLiteral("cpu-threads");  // open every rank's CPU threads

class TimelineView : public AnalysisView {
public:
    TimelineView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_cpuThreads(new QCheckBox(tr("CPU threads"), this)), m_timeline(new TimelineWidget(this)),
          m_spanCaption(new QLabel(this)), m_span(new ResultTableView(QStringLiteral("timeline-span"), this))
    {
        makeCaption(m_caption, false);
        makeCaption(m_spanCaption, false);
        m_cpuThreads->setToolTip(tr("Show every rank's CPU threads, one row per call depth (a rank's \"CPU threads\" line opens one)"));
        m_span->setNameColumn(QStringLiteral("name"));
        m_span->setMinimumHeight(40);
        m_span->sortByColumn(3, Qt::DescendingOrder);  // the most time inside the span first
        setPage(this, {controlRow(this, {m_caption, m_cpuThreads})},
                splitOf(this, Qt::Vertical, {m_timeline, stackedBox(this, {m_spanCaption}, m_span)}, {4, 1}));
        addTableViews({m_span});
        connect(m_span, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0)
                pickKernel(id, fmt::qstr(slice().str(StringId{id})));
        });
        connect(m_cpuThreads, &QCheckBox::toggled, this, [this](bool on) { setOption(kCpuThreads, on); });
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
    QList<AnalysisRequest> requests() const override
    {
        if (selection()->timeRange().isEmpty())
            return {indexRequest()};
        return {indexRequest(), spanRequest()};
    }

    void present(const ResultSet& results) override
    {
        const bool cpu = boolOption(kCpuThreads, false);
        {
            const QSignalBlocker blocker(m_cpuThreads);
            m_cpuThreads->setChecked(cpu);
        }
        m_index = results.share(indexRequest());
        m_timeline->setData(session()->slice(), m_index);
        m_timeline->setCpuThreadsShownEverywhere(cpu);
        if (selection()->timeRange().isEmpty()) {
            m_spanResult.reset();
            m_span->setTable(std::make_shared<Table>());
            m_spanCaption->setText(tr("Shift+drag over the timeline: what ran inside the span, by name"));
        } else {
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
        const TimeRange range = selection()->timeRange();
        m_timeline->setTimeRange(range.beginNs, range.endNs);
        // A span chosen elsewhere (a segment, a collective, "Show on timeline") is zoomed to; one
        // dragged out here stays as the user framed it.
        if (!range.isEmpty() && range != m_lastRange)
            m_timeline->showSpan(range.beginNs, range.endNs);
        m_lastRange = range;
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_index.reset();
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
    void updateCaption()
    {
        if (!m_index)
            return;
        const qint64 from = m_timeline->windowFromNs(), to = m_timeline->windowToNs();
        m_caption->setText(tr("%1 ranks, %2 events · %3 to %4 (%5) · wheel zooms, drag pans, Shift+drag selects a span, Home: all")
                               .arg(slice().ranks.size())
                               .arg(QLocale().toString(qint64(m_index->events)))
                               .arg(fmt::duration(double(std::max<qint64>(0, from))), fmt::duration(double(to)),
                                    fmt::duration(double(to - from))));
    }

    QLabel* m_caption;
    QCheckBox* m_cpuThreads;
    TimelineWidget* m_timeline;
    QLabel* m_spanCaption;
    ResultTableView* m_span;
    std::shared_ptr<const TimelineIndex> m_index;
    std::shared_ptr<const SpanSummary> m_spanResult;
    TimeRange m_lastRange;  // the selection's span last shown
};

} // namespace

ViewFactory timelineView() { return createView<TimelineView>(); }

} // namespace kscope
