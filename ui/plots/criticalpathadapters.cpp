#include "plots/criticalpathadapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/criticalpath/criticalpath.h"

#include <QCoreApplication>

#include <array>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::CriticalPathAdapters", text); }

constexpr std::array kBounds{CpBound::CpuBound,          CpBound::DataLoading,
                             CpBound::GpuComputeBound,   CpBound::GpuCommunicationBound,
                             CpBound::GpuKernelLaunchOverhead, CpBound::GpuKernelKernelOverhead};

// Legend text short enough for six entries in a dock; HTA's names are in the tables.
QString boundLabel(CpBound bound)
{
    switch (bound) {
    case CpBound::CpuBound: return tr("CPU");
    case CpBound::DataLoading: return tr("data loading");
    case CpBound::GpuComputeBound: return tr("GPU compute");
    case CpBound::GpuCommunicationBound: return tr("communication");
    case CpBound::GpuKernelLaunchOverhead: return tr("launch");
    case CpBound::GpuKernelKernelOverhead: return tr("kernel gaps");
    case CpBound::None: break;
    }
    return QString();
}

} // namespace

BarChartData criticalPathBoundBars(const RankPathSummaries& summaries, const QStringList& rankNames)
{
    BarChartData data;
    data.title = tr("What bounds the critical path, per rank");
    data.keyLabel = tr("Rank");
    data.valueLabel = tr("Share of the path (%)");
    data.percent = true;
    data.rankNames = rankNames;
    for (CpBound bound : kBounds)
        data.series.push_back({boundLabel(bound), palette::criticalPathBound(bound), {}});
    QStringList failed;
    for (const RankPathSummaries::Summary& rank : summaries.ranks) {
        const QString name = data.rankNames.value(rankChartId(rank.rankIndex));
        if (!rank.error.empty() || rank.lengthNs <= 0) {
            failed << name;
            continue;
        }
        data.keys.push_back(rankChartId(rank.rankIndex));
        data.ids.push_back(rankChartId(rank.rankIndex));
        QString tooltip = tr("Rank %1 — path %2").arg(name, fmt::micros(double(rank.lengthNs)));
        for (size_t b = 0; b < kBounds.size(); ++b) {
            double percent = 0;
            for (const CpSummaryRow& row : rank.rows)
                if (row.bound == kBounds[b]) {
                    percent = row.percent;
                    if (row.durationNs > 0)
                        tooltip += QStringLiteral("\n%1: %2 (%3)").arg(fmt::qstr(toString(kBounds[b])), fmt::micros(double(row.durationNs)),
                                                                       fmt::percent(row.percent));
                }
            data.series[int(b)].values.push_back(percent);
        }
        data.tooltips.push_back(tooltip);
    }
    if (!data.keys.isEmpty() && !failed.isEmpty())
        data.footnote = tr("No path on rank %1 (see its caption)").arg(failed.join(QStringLiteral(", ")));
    return data;
}

} // namespace kscope
