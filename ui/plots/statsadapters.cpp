#include "plots/statsadapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/core/idletime.h"
#include "analysis/core/kerneldistribution.h"

#include <QCoreApplication>

namespace kscope {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("kscope::StatsAdapters", text); }
} // namespace

BoxChartData kernelBoxes(const KernelDistribution& kernel, const QString& kernelName, const QStringList& rankNames)
{
    BoxChartData data;
    data.rankNames = rankNames;
    data.title = kernelName;  // the chart elides it to its width
    data.keyLabel = tr("Rank");
    data.valueLabel = tr("Kernel duration (µs)");
    for (const KernelRankDistribution& d : kernel.ranks) {
        BoxItem box;
        box.key = rankChartId(d.rankIndex);
        box.id = rankChartId(d.rankIndex);
        box.whiskerLow = d.whiskerLowNs / 1000.0;
        box.q1 = d.q1Ns / 1000.0;
        box.median = d.medianNs / 1000.0;
        box.q3 = d.q3Ns / 1000.0;
        box.whiskerHigh = d.whiskerHighNs / 1000.0;
        for (int64_t ns : d.outliersNs)
            box.outliers.push_back(ns / 1000.0);
        box.tooltip = tr("Rank %1: %2 launches, %3 total\nmin %4 · q1 %5 · median %6\nq3 %7 · max %8\n"
                         "mean %9 · stddev %10\n%11 outliers beyond 1.5 IQR")
                          .arg(rankNames.value(rankChartId(d.rankIndex)))
                          .arg(d.count)
                          .arg(fmt::micros(double(d.totalNs)), fmt::micros(d.minNs), fmt::micros(d.q1Ns),
                               fmt::micros(d.medianNs), fmt::micros(d.q3Ns), fmt::micros(d.maxNs),
                               fmt::micros(d.meanNs), fmt::micros(d.stddevNs))
                          .arg(d.outlierCount);
        data.boxes.push_back(box);
    }
    if (data.boxes.isEmpty())
        data.message = tr("The kernel ran on no rank");
    return data;
}

HistogramData idleHistogramData(const IdleHistogram& result, const QString& rankName, bool logBins)
{
    HistogramData data;
    data.title = tr("Idle intervals on rank %1").arg(rankName);
    data.keyLabel = logBins ? tr("Gap length (µs, log scale)") : tr("Gap length (µs)");
    data.valueLabel = tr("Gaps");
    data.logKeys = logBins;
    if (!result.error.empty()) {
        data.message = tr("No result: %1").arg(fmt::qstr(result.error));
        return data;
    }
    data.edges = QVector<double>(result.edgesUs.begin(), result.edgesUs.end());
    for (int c = 0; c < kIdleCategoryCount; ++c) {
        const auto category = static_cast<IdleCategory>(c);
        HistogramSeries s{fmt::qstr(toString(category)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                          palette::idleCategory(category), {}};
        for (int64_t count : result.counts[c])
            s.counts.push_back(double(count));
        data.series.push_back(s);
    }
    if (logBins && result.nonPositiveGaps > 0)
        data.footnote = tr("%1 back-to-back or overlapping gaps (≤ 0 µs) not shown on the log axis")
                            .arg(result.nonPositiveGaps);
    if (data.edges.size() < 2)
        data.message = tr("Rank %1 has no idle intervals").arg(rankName);
    return data;
}

} // namespace kscope
