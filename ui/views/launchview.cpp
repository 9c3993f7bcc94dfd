// Kernel launches of the selected rank (HTA's get_cuda_kernel_launch_stats): the three views
// HTA draws as histograms (short kernels, runtime outliers, launch-delay outliers), the outlier
// launches (a click selects the kernel), and launches per runtime API.

#include "views/analysisview.h"
#include "views/viewlayout.h"

#include "common/format.h"
#include "models/modelroles.h"
#include "models/resulttablemodel.h"
#include "models/resulttableview.h"
#include "plots/chartview.h"
#include "plots/launchadapters.h"
#include "plots/plots.h"

#include "analysis/launch/launchstats.h"
#include "analysis/tables/launchtables.h"
#include "model/trace.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>

namespace kscope {

namespace {

const QString kRuntimeCutoff = QStringLiteral("runtimeCutoffUs");
const QString kDelayCutoff = QStringLiteral("launchDelayCutoffUs");
const QString kMemory = QStringLiteral("includeMemoryEvents");

QDoubleSpinBox* cutoffBox(QWidget* parent, const QString& tooltip)
{
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0.0, 1e7);
    box->setDecimals(1);
    box->setSuffix(QStringLiteral(" µs"));
    box->setToolTip(tooltip);
    return box;
}

class LaunchView : public AnalysisView {
public:
    LaunchView(const ViewSpec& spec, RunSession* session, QWidget* parent)
        : AnalysisView(spec, session, parent), m_rankLabel(new QLabel(this)),
          m_runtimeCutoff(cutoffBox(this, tr("A launch call longer than this is a runtime outlier (HTA: 50 µs)"))),
          m_delayCutoff(cutoffBox(this, tr("A launch delay longer than this is a launch-delay outlier (HTA: 100 µs)"))),
          m_memory(new QCheckBox(tr("Memory copies"), this)),
          m_short(new ChartView(QStringLiteral("launch-short-kernels"), this)),
          m_runtime(new ChartView(QStringLiteral("launch-runtime-outliers"), this)),
          m_delay(new ChartView(QStringLiteral("launch-delay-outliers"), this)),
          m_outliers(new ResultTableView(QStringLiteral("launch-outliers"), this)),
          m_apis(new ResultTableView(QStringLiteral("launch-apis"), this)),
          m_showOnTimeline(timelineButton(tr("The chosen outlier on the timeline: from its launch call to its GPU op's end"),
                                          [this] { pickOutlier(); }))
    {
        makeCaption(m_rankLabel, false);
        m_memory->setToolTip(tr("Count cudaMemcpyAsync / cudaMemsetAsync launches too"));
        m_outliers->setNameColumn(QStringLiteral("name"));
        for (ChartView* chart : {m_short, m_runtime, m_delay})
            chart->setMinimumSize(140, 100);  // three side by side must not widen the dock
        // The histograms get a page of their own: under a table they were 60 px tall.
        setPage(this,
                {controlRow(this, {m_rankLabel, tr("Runtime >"), m_runtimeCutoff, tr("Delay >"), m_delayCutoff, m_memory})},
                tabPages(this, {{splitOf(this, Qt::Horizontal, {m_short, m_runtime, m_delay}), tr("Histograms")},
                                {stackedBox(this, {controlRow(this, {m_showOnTimeline}, true)}, m_outliers), tr("Outliers")},
                                {m_apis, tr("Launches per API")}}));
        addCharts({m_short, m_runtime, m_delay});
        addTableViews({m_outliers, m_apis});
        connect(m_runtimeCutoff, &QDoubleSpinBox::editingFinished, this, [this] { setOption(kRuntimeCutoff, m_runtimeCutoff->value()); });
        connect(m_delayCutoff, &QDoubleSpinBox::editingFinished, this, [this] { setOption(kDelayCutoff, m_delayCutoff->value()); });
        connect(m_memory, &QCheckBox::toggled, this, [this](bool on) { setOption(kMemory, on); });
        connect(m_outliers, &ResultTableView::rowPicked, this, [this](const QModelIndex& index) {
            m_chosen = index.row();
            m_showOnTimeline->setEnabled(outlier() != nullptr);
            const quint32 id = index.data(kIdRole).toUInt();
            if (id != 0)
                pickKernel(id, m_outliers->resultModel()->index(index.row(), m_outliers->resultModel()->columnOf(QStringLiteral("name")))
                                   .data(kFilterRole)
                                   .toString());
        });
        refresh();
    }

protected:
    LaunchStatsOptions options() const
    {
        LaunchStatsOptions o;
        o.ranks = {shownRank()};
        o.runtimeCutoffUs = numberOption(kRuntimeCutoff, o.runtimeCutoffUs);
        o.launchDelayCutoffUs = numberOption(kDelayCutoff, o.launchDelayCutoffUs);
        o.includeMemoryEvents = boolOption(kMemory, o.includeMemoryEvents);
        return o;
    }

    Request<LaunchStats> launchRequest() const
    {
        LaunchStatsOptions o = options();
        o.htaCompat = htaCompat();
        return analysisRequest("launch", o, kernelLaunchStats);
    }

    QList<AnalysisRequest> requests() const override { return {launchRequest()}; }

    void present(const ResultSet& results) override
    {
        m_result = results.share(launchRequest());
        const LaunchStatsOptions o = options();
        {
            const QSignalBlocker a(m_runtimeCutoff), b(m_delayCutoff), c(m_memory);
            m_runtimeCutoff->setValue(o.runtimeCutoffUs);
            m_delayCutoff->setValue(o.launchDelayCutoffUs);
            m_memory->setChecked(o.includeMemoryEvents);
        }
        const RankLaunchStats* rank = m_result->ranks.empty() ? nullptr : &m_result->ranks.front();
        m_rankLabel->setText(rank ? tr("<b>Rank %1</b> — %2").arg(rank->rank).arg(fmt::count(qint64(rank->launches.size()), "launch", "launches"))
                                  : tr("No launches"));
        if (!rank) {
            const QString why = m_result->error.empty() ? tr("No kernel launches on this rank") : fmt::qstr(m_result->error);
            for (ChartView* chart : {m_short, m_runtime, m_delay})
                chart->showOnlyMessage(why);
        } else {
            drawHistogram(*m_short, launchHistogramData(rank->shortKernels, tr("Short kernels"), tr("CPU launch time (µs)")));
            drawHistogram(*m_runtime, launchHistogramData(rank->runtimeOutliers, tr("Runtime outliers"), tr("CPU launch time (µs)")));
            drawHistogram(*m_delay, launchHistogramData(rank->launchDelayOutliers, tr("Launch-delay outliers"), tr("Launch delay (µs)")));
        }
        // Outlier rows in the table's order: runtime outliers, then launch-delay outliers.
        QVector<quint32> ids;
        if (rank)
            for (const auto* rows : {&rank->runtimeOutlierRows, &rank->launchDelayOutlierRows})
                for (uint32_t k : *rows)
                    ids.push_back(rank->launches[k].kernelName.value);
        m_outliers->setTable(std::make_shared<Table>(launchOutliersTable(slice(), *m_result)), ids);
        m_apis->setTable(std::make_shared<Table>(launchApisTable(slice(), *m_result)));
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
    }

    // The outlier of table row m_chosen (runtime outliers, then launch-delay outliers).
    const KernelLaunch* outlier() const
    {
        if (!m_result || m_result->ranks.empty() || m_chosen < 0)
            return nullptr;
        const RankLaunchStats& rank = m_result->ranks.front();
        size_t row = size_t(m_chosen);
        for (const auto* rows : {&rank.runtimeOutlierRows, &rank.launchDelayOutlierRows}) {
            if (row < rows->size())
                return &rank.launches[(*rows)[row]];
            row -= rows->size();
        }
        return nullptr;
    }

    void pickOutlier()
    {
        const KernelLaunch* launch = outlier();
        if (!launch || launch->gpu == kNoEvent || !slice().has(shownRank()))
            return;
        const EventTable& t = slice().at(shownRank()).events;
        pickOnTimeline(shownRank(), launch->gpu, launch->launchTsNs, std::max(t.endNs(launch->gpu), launch->launchTsNs + launch->cpuDurationNs));
    }

    void showMessage(const QString& message) override
    {
        AnalysisView::showMessage(message);
        m_result.reset();
        m_chosen = -1;
        m_showOnTimeline->setEnabled(false);
        m_rankLabel->setText(message.size() < 40 ? message : QString());
    }

    QList<TableExport> currentTables() const override
    {
        const int rank = m_result->ranks.empty() ? -1 : m_result->ranks.front().rank;
        return {{QStringLiteral("launch-stats-rank%1").arg(rank), launchStatsTable(slice(), *m_result)},
                {QStringLiteral("launch-histograms-rank%1").arg(rank), launchHistogramTable(*m_result)},
                {QStringLiteral("launch-outliers-rank%1").arg(rank), launchOutliersTable(slice(), *m_result)},
                {QStringLiteral("launch-apis-rank%1").arg(rank), launchApisTable(slice(), *m_result)}};
    }

private:
    QLabel* m_rankLabel;
    QDoubleSpinBox* m_runtimeCutoff;
    QDoubleSpinBox* m_delayCutoff;
    QCheckBox* m_memory;
    ChartView* m_short;
    ChartView* m_runtime;
    ChartView* m_delay;
    ResultTableView* m_outliers;
    ResultTableView* m_apis;
    QPushButton* m_showOnTimeline;
    int m_chosen = -1;  // the outlier row chosen
    std::shared_ptr<const LaunchStats> m_result;
};

} // namespace

ViewFactory launchView() { return createView<LaunchView>(); }

} // namespace kscope
