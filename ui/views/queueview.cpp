// Launch queue length per stream and memory-copy bandwidth per copy kind of the selected rank,
// over time (HTA's queue length and memory bandwidth time series), with their summaries.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/launchadapters.h"
#include "plots/plots.h"

#include "analysis/tables/launchtables.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "model/trace.h"

#include <QLabel>

namespace kscope {

namespace {

constexpr int kBuckets = 1500;  // per line: a few points per pixel of a wide chart

class QueueView : public AnalysisView {
public:
    QueueView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_rankLabel(new QLabel(this)),
          m_queue(new ChartView(QStringLiteral("queue-length"), this)),
          m_bandwidth(new ChartView(QStringLiteral("memory-bandwidth"), this)),
          m_queueStats(new ResultTableView(QStringLiteral("queue-length-summary"), this)),
          m_blocked(new ResultTableView(QStringLiteral("queue-blocked"), this)),
          m_bandwidthStats(new ResultTableView(QStringLiteral("memory-bw-summary"), this))
    {
        makeCaption(m_rankLabel, false);
        m_queue->setMinimumHeight(120);
        m_bandwidth->setMinimumHeight(120);
        for (ResultTableView* table : {m_queueStats, m_blocked, m_bandwidthStats})
            table->setMinimumWidth(120);
        // Each chart a page of the dock's full size: beside the tables they were 200 px wide,
        // their legends cut to "st st st".
        setPage(this, {m_rankLabel},
                tabPages(this, {{m_queue, tr("Queue")},
                                {m_bandwidth, tr("Bandwidth")},
                                {m_queueStats, tr("Queue stats")},
                                {m_blocked, tr("Full queue")},
                                {m_bandwidthStats, tr("Bandwidth stats")}}));
        addCharts({m_queue, m_bandwidth});
        addTableViews({m_queueStats, m_blocked, m_bandwidthStats});
        refresh();
    }

protected:
    Request<QueueLength> queueRequest() const
    {
        return analysisRequest("queue", QueueLengthOptions{.htaCompat = htaCompat(), .ranks = {shownRank()}}, queueLength);
    }
    Request<MemoryBandwidth> bandwidthRequest() const
    {
        return analysisRequest("memory-bw", MemoryBandwidthOptions{.htaCompat = htaCompat(), .ranks = {shownRank()}},
                               memoryBandwidth);
    }

    QList<AnalysisRequest> requests() const override { return {queueRequest(), bandwidthRequest()}; }

    void present(const ResultSet& results) override
    {
        m_rankTag = shownRankTag();
        m_queueResult = results.share(queueRequest());
        m_bandwidthResult = results.share(bandwidthRequest());
        m_rankLabel->setText(tr("<b>Rank %1</b> (select another in a chart or the toolbar)").arg(shownRankName().toHtmlEscaped()));
        const int64_t origin = session()->run()->minTsNs;  // the whole run's, whatever step is shown
        drawSeries(*m_queue, queueSeriesData(*m_queueResult, shownRank(), shownRankName(), origin, kBuckets));
        drawSeries(*m_bandwidth, bandwidthSeriesData(*m_bandwidthResult, shownRank(), shownRankName(), origin, kBuckets));
        m_queueStats->setTable(std::make_shared<Table>(queueSummaryTable(*m_queueResult)));
        m_blocked->setTable(std::make_shared<Table>(queueBlockedTable(*m_queueResult)));
        m_bandwidthStats->setTable(std::make_shared<Table>(memoryBwSummaryTable(*m_bandwidthResult)));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_queueResult.reset();
        m_bandwidthResult.reset();
        m_rankLabel->setText(message.size() < 40 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("queue-length-%1").arg(m_rankTag), queueSummaryTable(*m_queueResult)},
                {QStringLiteral("queue-blocked-%1").arg(m_rankTag), queueBlockedTable(*m_queueResult)},
                {QStringLiteral("memory-bw-%1").arg(m_rankTag), memoryBwSummaryTable(*m_bandwidthResult)}};
    }

private:
    QLabel* m_rankLabel;
    ChartView* m_queue;
    ChartView* m_bandwidth;
    ResultTableView* m_queueStats;
    ResultTableView* m_blocked;
    ResultTableView* m_bandwidthStats;
    QString m_rankTag;  // of the rank presented
    std::shared_ptr<const QueueLength> m_queueResult;
    std::shared_ptr<const MemoryBandwidth> m_bandwidthResult;
};

} // namespace

ViewFactory queueView() { return createView<QueueView>(); }

} // namespace kscope
