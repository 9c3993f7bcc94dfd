// Idle time of the selected rank: stacked bars per stream by cause (host wait, kernel wait,
// other; every selected rank's streams side by side when several are selected with Ctrl+click),
// a histogram of the shown rank's gaps' lengths per cause, and its longest gaps (a click selects
// the gap and the GPU op that ended it; "Show on timeline" goes there). Beyond HTA, the host-side
// causes of the shown rank's gaps (analysis/core/idlecauses.h): a bar per cause, and a click on one
// lists its gaps.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/resulttableview.h"
#include "plots/baradapters.h"
#include "plots/chartview.h"
#include "plots/plots.h"
#include "plots/statsadapters.h"

#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/tables/idlecausetables.h"
#include "analysis/tables/resulttables.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>

namespace kscope {

namespace {

const QString kPercent = QStringLiteral("percent");
const QString kLogBins = QStringLiteral("logBins");
const QString kDelay = QStringLiteral("consecutiveKernelDelayUs");

class IdleView : public AnalysisView {
public:
    IdleView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_rankLabel(new QLabel(this)),
          m_percent(new QCheckBox(tr("Percent"), this)), m_logBins(new QCheckBox(tr("Log-scale bins"), this)),
          m_delay(new QDoubleSpinBox(this)), m_streams(new ChartView(QStringLiteral("idle-time-streams"), this)),
          m_histogram(new ChartView(QStringLiteral("idle-time-histogram"), this)),
          m_gaps(new ResultTableView(QStringLiteral("idle-gaps"), this)),
          m_showOnTimeline(timelineButton(tr("The chosen gap on the timeline, the GPU op after it selected"), [this] { pickGap(); })),
          m_causes(new ChartView(QStringLiteral("idle-causes"), this)), m_causeCaption(new QLabel(this)),
          m_causeGaps(new ResultTableView(QStringLiteral("idle-cause-gaps"), this)),
          m_showCauseGap(timelineButton(tr("The chosen gap on the timeline, the GPU op after it selected"), [this] { pickCauseGap(); }))
    {
        m_percent->setChecked(boolOption(kPercent, true));
        m_percent->setToolTip(tr("Share of each stream's idle time; off: absolute time"));
        m_logBins->setChecked(boolOption(kLogBins, true));
        m_logBins->setToolTip(tr("Geometric bins on a log axis: gaps span microseconds to seconds"));
        m_delay->setRange(0.0, 1e6);
        m_delay->setDecimals(1);
        m_delay->setSuffix(tr(" µs"));
        m_delay->setValue(numberOption(kDelay, IdleTimeOptions{}.consecutiveKernelDelayUs));
        m_delay->setToolTip(tr("Consecutive-kernel delay: a shorter gap between kernels counts as kernel wait (HTA: 30 µs)"));
        m_rankLabel->setToolTip(tr("Select another rank in a chart or the toolbar"));
        // Long messages ("No usable rank in ...") must not widen the dock: they are cut, not wrapped.
        makeCaption(m_rankLabel, false);
        m_gaps->setNameColumn(QStringLiteral("next"));
        m_gaps->setMinimumHeight(30);
        m_showOnTimeline->setObjectName(QStringLiteral("longestGapOnTimeline"));
        m_showCauseGap->setObjectName(QStringLiteral("causeGapOnTimeline"));
        m_causeGaps->setNameColumn(QStringLiteral("cause_op"));
        m_causeGaps->setMinimumHeight(30);
        makeCaption(m_causeCaption, false);
        setPage(this, {controlRow(this, {m_rankLabel, tr("Kernel wait <"), m_delay, m_percent, m_logBins})},
                tabPages(this, {{splitOf(this, Qt::Horizontal, {m_streams, m_histogram}), tr("By stream and cause")},
                                {stackedBox(this, {controlRow(this, {m_showOnTimeline}, true)}, m_gaps), tr("Longest gaps")},
                                {splitOf(this, Qt::Horizontal,
                                         {m_causes, stackedBox(this, {controlRow(this, {m_causeCaption, m_showCauseGap})},
                                                               m_causeGaps)}),
                                 tr("Host causes")}}));
        addCharts({m_streams, m_histogram, m_causes});
        addTableViews({m_gaps, m_causeGaps});
        connect(m_causes, &ChartView::idClicked, this, [this](int cause) {
            if (cause < 0 || cause >= kIdleCauseCount)
                return;
            m_cause = static_cast<IdleCause>(cause);
            showCauseGaps();
        });
        connect(m_causeGaps, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            if (index.row() < 0 || index.row() >= m_causeRows.size())
                return;
            m_chosenCauseGap = index.row();
            m_showCauseGap->setEnabled(true);
            pickCauseGap();
        });
        // Rows are the longest gaps, longest first.
        connect(m_gaps, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            if (!m_bins || index.row() < 0 || size_t(index.row()) >= m_bins->longest.size())
                return;
            m_chosen = index.row();
            m_showOnTimeline->setEnabled(true);
            pickGap();
        });
        connect(m_percent, &QCheckBox::toggled, this, [this](bool on) { setOption(kPercent, on); });
        connect(m_logBins, &QCheckBox::toggled, this, [this](bool on) { setOption(kLogBins, on); });
        connect(m_delay, &QDoubleSpinBox::editingFinished, this, [this] { setOption(kDelay, m_delay->value()); });
        refresh();
    }

protected:
    double delayUs() const { return numberOption(kDelay, IdleTimeOptions{}.consecutiveKernelDelayUs); }
    bool logBins() const { return boolOption(kLogBins, true); }

    Request<IdleTime> idleRequest() const
    {
        IdleTimeOptions options;
        options.htaCompat = htaCompat();
        const QList<RankIndex> ranks = shownRanks();
        options.ranks.assign(ranks.begin(), ranks.end());
        options.consecutiveKernelDelayUs = delayUs();
        return analysisRequest("idle", options, idleTimeBreakdown);
    }
    Request<IdleHistogram> histogramRequest() const
    {
        IdleHistogramOptions options;
        options.rank = shownRank();
        options.logScale = logBins();
        options.bins = 40;
        options.consecutiveKernelDelayUs = delayUs();
        return analysisRequest("idle-histogram", options, idleHistogram);
    }

    Request<IdleCauses> causesRequest() const
    {
        IdleCausesOptions options;
        options.ranks = {shownRank()};
        options.consecutiveKernelDelayUs = delayUs();
        options.listGaps = true;
        return analysisRequest("idle-causes", options, idleCauses);
    }

    QList<AnalysisRequest> requests() const override { return {idleRequest(), histogramRequest(), causesRequest()}; }

    void present(const ResultSet& results) override
    {
        m_rankTag = shownRankTag();
        m_idle = results.share(idleRequest());
        m_bins = results.share(histogramRequest());
        m_hostCauses = results.share(causesRequest());
        const QString name = shownRankName().toHtmlEscaped();
        const QList<RankIndex> ranks = shownRanks();
        QString label = partialRanks().contains(shownRank())
                            ? tr("<b>Rank %1</b> — partial: its file was read only up to an error").arg(name)
                            : tr("<b>Rank %1</b>").arg(name);
        QVector<IdleRank> chartRanks;
        for (RankIndex rank : ranks)
            chartRanks.push_back({slice().at(rank).rank, fmt::qstr(slice().rankName(rank))});
        if (ranks.size() > 1) {
            QStringList others;
            for (const IdleRank& rank : chartRanks)
                others.push_back(rank.name.toHtmlEscaped());
            label = tr("<b>Ranks %1</b> per stream; gaps of %2").arg(others.join(QStringLiteral(", ")), label);
        }
        m_rankLabel->setText(label);
        m_streamsTag = m_rankTag;
        if (ranks.size() > 1) {
            QStringList numbers;
            for (const IdleRank& rank : chartRanks)
                numbers.push_back(QString::number(rank.number));
            m_streamsTag = QStringLiteral("ranks") + numbers.join(QLatin1Char('-'));
        }
        syncControls();
        drawBars(*m_streams, idleStreamBars(*m_idle, chartRanks, boolOption(kPercent, true)));
        drawHistogram(*m_histogram, idleHistogramData(*m_bins, shownRankName(), logBins()));
        m_gaps->setTable(std::make_shared<Table>(idleGapsTable(slice(), *m_bins)));
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        const IdleRank shown{slice().has(shownRank()) ? slice().at(shownRank()).rank : -1, shownRankName()};
        drawBars(*m_causes, idleCauseBars(*m_hostCauses, shown, boolOption(kPercent, true)));
        // Keep the cause chosen if the new result has it; else the one that held the most.
        const auto& rows = m_hostCauses->byRank;
        const bool kept = std::any_of(rows.begin(), rows.end(), [this](const IdleCauseRow& r) { return r.cause == m_cause; });
        if (!kept && !rows.empty())
            m_cause = std::max_element(rows.begin(), rows.end(), [](const IdleCauseRow& a, const IdleCauseRow& b) {
                          return a.idleNs < b.idleNs;
                      })->cause;
        showCauseGaps();
    }

    // The gaps of the chosen cause, in time order; the caption says which and how many.
    void showCauseGaps()
    {
        m_causeRows.clear();
        m_chosenCauseGap = -1;
        m_showCauseGap->setEnabled(false);
        if (!m_hostCauses)
            return;
        for (int g = 0; g < int(m_hostCauses->gaps.size()); ++g)
            if (m_hostCauses->gaps[size_t(g)].cause == m_cause)
                m_causeRows.push_back(g);
        m_causeCaption->setText(m_hostCauses->gaps.empty()
                                    ? tr("No idle gap on a GPU stream")
                                    : tr("<b>%1</b>: %2 on all streams (click a segment for another cause)")
                                          .arg(fmt::qstr(toString(m_cause)), fmt::count(m_causeRows.size(), "gap", "gaps")));
        m_causeGaps->setTable(std::make_shared<Table>(idleCauseGapsTable(slice(), *m_hostCauses, m_cause)));
    }

    void pickCauseGap()
    {
        if (!m_hostCauses || m_chosenCauseGap < 0 || m_chosenCauseGap >= m_causeRows.size())
            return;
        const IdleCauseGap& gap = m_hostCauses->gaps[size_t(m_causeRows[m_chosenCauseGap])];
        pickOnTimeline(gap.rankIndex, gap.next, gap.startNs, gap.endNs);
    }

    void pickGap()
    {
        if (!m_bins || m_chosen < 0 || size_t(m_chosen) >= m_bins->longest.size())
            return;
        const IdleGap& gap = m_bins->longest[size_t(m_chosen)];
        pickOnTimeline(m_bins->rankIndex, gap.next, gap.startNs, gap.endNs);
    }

    // The controls show the session's options, whoever set them last.
    void syncControls()
    {
        const QSignalBlocker percent(m_percent), log(m_logBins), delay(m_delay);
        m_percent->setChecked(boolOption(kPercent, true));
        m_logBins->setChecked(logBins());
        m_delay->setValue(delayUs());
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_idle.reset();
        m_bins.reset();
        m_hostCauses.reset();
        m_causeRows.clear();
        m_showCauseGap->setEnabled(false);
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        m_rankLabel->setText(message.size() < 40 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        return {{QStringLiteral("idle-time-%1").arg(m_streamsTag), idleTable(*m_idle)},
                {QStringLiteral("idle-histogram-%1").arg(m_rankTag), idleHistogramTable(*m_bins)},
                {QStringLiteral("idle-gaps-%1").arg(m_rankTag), idleGapsTable(slice(), *m_bins)},
                {QStringLiteral("idle-causes-%1").arg(m_rankTag), idleCausesTable(*m_hostCauses)},
                {QStringLiteral("idle-cause-gaps-%1").arg(m_rankTag), idleCauseGapsTable(slice(), *m_hostCauses)}};
    }

private:
    QLabel* m_rankLabel;
    QCheckBox* m_percent;
    QCheckBox* m_logBins;
    QDoubleSpinBox* m_delay;
    ChartView* m_streams;
    ChartView* m_histogram;
    ResultTableView* m_gaps;
    QPushButton* m_showOnTimeline;
    ChartView* m_causes;
    QLabel* m_causeCaption;
    ResultTableView* m_causeGaps;
    QPushButton* m_showCauseGap;
    IdleCause m_cause = IdleCause::NoHostActivity;  // whose gaps the table lists
    QList<int> m_causeRows;    // the table's rows: indices into m_hostCauses->gaps
    int m_chosenCauseGap = -1;  // a row of that table
    int m_chosen = -1;  // the gap chosen in the table
    QString m_rankTag;  // of the rank presented
    QString m_streamsTag;  // of the ranks in the streams chart: the rank's tag, or "ranks0-3-5"
    std::shared_ptr<const IdleTime> m_idle;
    std::shared_ptr<const IdleHistogram> m_bins;
    std::shared_ptr<const IdleCauses> m_hostCauses;
};

} // namespace

ViewFactory idleView() { return createView<IdleView>(); }

} // namespace kscope
