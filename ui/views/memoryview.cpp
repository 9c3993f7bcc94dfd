// GPU memory of the selected rank from the profiler's [memory] events (analysis/operators/memory.h):
// allocated and reserved bytes per device over time with the ProfilerSteps as bands and the peak
// marked; a click on the curve names the op that allocated there and lists its kernels in the
// Operators view. Tables: per device, per step peaks, the ops that allocate most, unfreed blocks.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/memoryadapters.h"
#include "plots/plots.h"

#include "analysis/operators/memory.h"
#include "analysis/tables/memorytables.h"
#include "model/trace.h"

#include <QLabel>
#include <QPushButton>
#include <QMouseEvent>

#include <algorithm>

namespace kscope {

namespace {

constexpr size_t kMaxPoints = 4000;  // per device: the chart's width many times over, peaks kept

class MemoryView : public AnalysisView {
public:
    MemoryView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_caption(new QLabel(this)),
          m_chart(new ChartView(QStringLiteral("memory"), this)),
          m_devices(new ResultTableView(QStringLiteral("memory-devices"), this)),
          m_steps(new ResultTableView(QStringLiteral("memory-steps"), this)),
          m_ops(new ResultTableView(QStringLiteral("memory-ops"), this)),
          m_unfreed(new ResultTableView(QStringLiteral("memory-unfreed"), this)),
          m_showOnTimeline(timelineButton(tr("The peak on the timeline: the op it happened in, with the memory counter track"),
                                          [this] { pickPeak(); }))
    {
        makeCaption(m_caption, true);
        m_chart->setMinimumHeight(110);
        m_ops->setNameColumn(QStringLiteral("op"));
        m_showOnTimeline->setText(tr("Show peak on timeline"));
        setPage(this, {controlRow(this, {m_caption, m_showOnTimeline})},
                tabPages(this, {{m_chart, tr("Over time")},
                                {m_devices, tr("Devices")},
                                {m_steps, tr("Per step")},
                                {m_ops, tr("By op")},
                                {m_unfreed, tr("Not freed")}}));
        addCharts({m_chart});
        addTableViews({m_devices, m_steps, m_ops, m_unfreed});
        connect(m_chart, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
            pointAt(m_chart->xAxis->pixelToCoord(event->position().x()));
        });
        refresh();
    }

private:
    // The point of the selected rank's first device in effect at `keyMs` (the curve holds each
    // value until the next event): the caption says what it is and who allocated it.
    void pointAt(double keyMs)
    {
        const auto shown = session()->run();
        if (!m_result || !shown)
            return;
        for (const MemoryDevice& d : m_result->devices) {
            if (d.device.rank != shownNumber() || d.series.empty())
                continue;
            const int64_t ts = shown->minTsNs + int64_t(keyMs * 1e6);
            auto it = std::upper_bound(d.series.begin(), d.series.end(), ts,
                                       [](int64_t t, const MemoryPoint& p) { return t < p.tsNs; });
            if (it == d.series.begin())
                return;
            const MemoryPoint& p = *std::prev(it);
            const QString op = p.op ? fmt::qstr(shown->str(p.op)) : QString();
            m_caption->setText(tr("%1 at %2 ms: %3 allocated, %4 reserved%5")
                                   .arg(fmt::qstr(toString(d.device)))
                                   .arg(double(p.tsNs - shown->minTsNs) / 1e6, 0, 'f', 3)
                                   .arg(fmt::bytes(uint64_t(p.allocated)), p.reserved >= 0 ? fmt::bytes(uint64_t(p.reserved)) : tr("unknown"),
                                        op.isEmpty() ? tr(", outside every op") : tr(", in <b>%1</b>").arg(op.toHtmlEscaped())));
            if (!op.isEmpty())
                selection()->setOp(op);
            return;
        }
    }

protected:
    Request<MemoryTimeline> memoryRequest() const
    {
        MemoryOptions options;
        options.ranks = {shownRank()};
        options.maxPoints = kMaxPoints;
        return analysisRequest("memory", options, memoryTimeline);
    }

    QList<AnalysisRequest> requests() const override { return {memoryRequest()}; }

    void present(const ResultSet& results) override
    {
        m_result = results.share(memoryRequest());
        drawSeries(*m_chart, memorySeriesData(*m_result, slice(), shownRank()));
        m_devices->setTable(std::make_shared<Table>(memorySummaryTable(slice(), *m_result)));
        m_steps->setTable(std::make_shared<Table>(memoryStepsTable(*m_result)));
        m_ops->setTable(std::make_shared<Table>(memoryOpsTable(slice(), *m_result)));
        m_unfreed->setTable(std::make_shared<Table>(memoryUnfreedTable(slice(), *m_result)));
        m_caption->setText(caption());
        m_showOnTimeline->setEnabled(peakDevice() != nullptr);
    }

    // The shown rank's device with the highest peak that names its event.
    const MemoryDevice* peakDevice() const
    {
        const MemoryDevice* peak = nullptr;
        if (m_result)
            for (const MemoryDevice& d : m_result->devices)
                if (d.device.rank == shownNumber() && d.peakEvent != kNoEvent && (!peak || d.peakAllocated > peak->peakAllocated))
                    peak = &d;
        return peak;
    }

    // The peak's [memory] event selected, the span of the innermost op on its thread around it (a
    // millisecond around it when none), and the timeline's counter tracks on so the curve shows.
    void pickPeak()
    {
        const MemoryDevice* peak = peakDevice();
        if (!peak || !slice().has(shownRank()))
            return;
        const EventTable& t = slice().at(shownRank()).events;
        const EventIndex e = peak->peakEvent;
        if (e < 0 || size_t(e) >= t.size())
            return;
        int64_t from = t.tsNs[e] - 500000, to = t.tsNs[e] + 500000;
        int64_t innermost = INT64_MIN;
        for (size_t i = 0; i < t.size() && t.tsNs[i] <= t.tsNs[e]; ++i)
            if (t.kind[i] == EventKind::CpuOp && t.thread[i] == t.thread[e] && t.endNs(EventIndex(i)) >= t.tsNs[e] && t.tsNs[i] > innermost) {
                innermost = t.tsNs[i];
                from = t.tsNs[i];
                to = std::max(t.endNs(EventIndex(i)), from + 1);
            }
        session()->setOption(QStringLiteral("timeline"), QStringLiteral("counters"), true);
        pickOnTimeline(shownRank(), e, from, to);
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
        m_showOnTimeline->setEnabled(false);
        m_caption->setText(message.size() < 80 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        const QString rank = shownRankTag();
        return {{QStringLiteral("memory-devices-%1").arg(rank), memorySummaryTable(slice(), *m_result)},
                {QStringLiteral("memory-steps-%1").arg(rank), memoryStepsTable(*m_result)},
                {QStringLiteral("memory-ops-%1").arg(rank), memoryOpsTable(slice(), *m_result)},
                {QStringLiteral("memory-unfreed-%1").arg(rank), memoryUnfreedTable(slice(), *m_result)}};
    }

private:
    // The result holds the shown rank trace alone: its devices carry its number.
    int shownNumber() const
    {
        const auto shown = session()->slice();
        return shown && shown->has(shownRank()) ? shown->at(shownRank()).rank : -1;
    }

    QString caption() const
    {
        if (!m_result->error.empty())
            return fmt::qstr(m_result->error);
        QStringList parts;
        for (const MemoryDevice& d : m_result->devices)
            if (d.device.rank == shownNumber())
                parts << tr("%1: peak %2 allocated, %3 reserved; %4 left allocated at the end")
                             .arg(fmt::qstr(toString(d.device)), fmt::bytes(uint64_t(d.peakAllocated)),
                                  d.reservedKnown ? fmt::bytes(uint64_t(d.peakReserved)) : tr("unknown"),
                                  fmt::bytes(uint64_t(d.lastAllocated)));
        if (parts.isEmpty())
            return tr("Rank %1 has no [memory] events (record with profile_memory=True).").arg(shownRankName());
        return tr("Rank %1 — %2. Click the curve to see who allocated.").arg(shownRankName(), parts.join(QStringLiteral("; ")));
    }

    QLabel* m_caption;
    ChartView* m_chart;
    ResultTableView* m_devices;
    ResultTableView* m_steps;
    ResultTableView* m_ops;
    ResultTableView* m_unfreed;
    QPushButton* m_showOnTimeline;
    std::shared_ptr<const MemoryTimeline> m_result;
};

} // namespace

ViewFactory memoryView() { return createView<MemoryView>(); }

} // namespace kscope
