#include "plots/baradapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/core/idlecauses.h"
#include "analysis/core/idletime.h"
#include "analysis/core/kernelbreakdown.h"
#include "analysis/core/overlap.h"
#include "analysis/core/temporalbreakdown.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::BarAdapters", text); }

// Legend text: HTA's names without the underscore, which legends clip at small sizes.
QString idleCategoryLabel(IdleCategory category)
{
    return fmt::qstr(toString(category)).replace(QLatin1Char('_'), QLatin1Char(' '));
}

QString errorMessage(const std::string& error, const QString& fallback)
{
    return error.empty() ? fallback : tr("No result: %1").arg(fmt::qstr(error));
}

// An absolute time axis reads in the unit of its largest value: "3.2 s", not "3·10⁶ µs".
struct TimeUnit {
    double nsPerUnit;
    QString label;
};

TimeUnit unitFor(double maxNs)
{
    if (maxNs >= 1e9)
        return {1e9, QStringLiteral("s")};
    if (maxNs >= 1e6)
        return {1e6, QStringLiteral("ms")};
    return {1e3, QStringLiteral("µs")};
}

} // namespace

QStringList rankNames(const Run& run)
{
    QStringList names;
    for (const RankTrace& rank : run.ranks)
        names << fmt::qstr(run.rankName(run.indexOf(rank)));
    return names;
}

BarChartData temporalBars(const TemporalBreakdown& result, const QStringList& rankNames, bool percent)
{
    BarChartData data;
    data.rankNames = rankNames;
    data.title = tr("Temporal breakdown across ranks");
    data.keyLabel = tr("Rank");
    double maxNs = 0;
    for (const TemporalBreakdownRow& row : result.rows)
        maxNs = std::max(maxNs, double(row.idleNs + row.computeNs + row.nonComputeNs));
    const TimeUnit unit = unitFor(maxNs);
    data.valueLabel = percent ? tr("Share of GPU span (%)") : tr("Time (%1)").arg(unit.label);
    data.percent = percent;
    data.series = {{tr("idle"), palette::idleTime(), {}},
                   {tr("compute"), palette::computeTime(), {}},
                   {tr("non-compute"), palette::nonComputeTime(), {}}};
    for (const TemporalBreakdownRow& row : result.rows) {
        data.keys.push_back(rankChartId(row.rankIndex));
        data.ids.push_back(rankChartId(row.rankIndex));
        const double values[3][2] = {{row.idlePctg, row.idleNs / unit.nsPerUnit},
                                     {row.computePctg, row.computeNs / unit.nsPerUnit},
                                     {row.nonComputePctg, row.nonComputeNs / unit.nsPerUnit}};
        for (int s = 0; s < 3; ++s)
            data.series[s].values.push_back(values[s][percent ? 0 : 1]);
        data.tooltips.push_back(tr("Rank %1 — GPU span %2\nidle: %3 (%4)\ncompute: %5 (%6)\nnon-compute: %7 (%8)")
                                    .arg(rankNames.value(rankChartId(row.rankIndex)))
                                    .arg(fmt::micros(double(row.spanNs)), fmt::micros(double(row.idleNs)),
                                         fmt::percent(row.idlePctg), fmt::micros(double(row.computeNs)),
                                         fmt::percent(row.computePctg), fmt::micros(double(row.nonComputeNs)),
                                         fmt::percent(row.nonComputePctg)));
    }
    if (data.keys.isEmpty())
        data.message = errorMessage(result.error, tr("No rank has GPU activity"));
    return data;
}

BarChartData overlapBars(const Overlap& result, const QStringList& rankNames)
{
    BarChartData data;
    data.rankNames = rankNames;
    data.title = tr("Communication overlapped by computation");
    data.keyLabel = tr("Rank");
    data.valueLabel = tr("Overlap (% of communication time)");
    data.percent = true;
    data.series = {{tr("overlap"), palette::overlap(), {}}};
    for (const OverlapRow& row : result.rows) {
        data.keys.push_back(rankChartId(row.rankIndex));
        data.ids.push_back(rankChartId(row.rankIndex));
        const QString name = rankNames.value(rankChartId(row.rankIndex));
        // A rank without communication has no percentage: drawn as 0 and said so in the tooltip.
        data.series[0].values.push_back(std::isfinite(row.overlapPctg) ? row.overlapPctg : 0.0);
        data.tooltips.push_back(row.hasCommunication
                                    ? tr("Rank %1\noverlap: %2\ncommunication: %3\noverlapped: %4")
                                          .arg(name)
                                          .arg(fmt::percent(row.overlapPctg), fmt::micros(double(row.communicationNs)),
                                               fmt::micros(double(row.overlapNs)))
                                    : tr("Rank %1\nno communication kernels").arg(name));
    }
    if (data.keys.isEmpty())
        data.message = errorMessage(result.error, tr("No ranks"));
    else if (std::none_of(result.rows.begin(), result.rows.end(), [](const OverlapRow& row) { return row.hasCommunication; }))
        data.message = tr("No rank has communication kernels: there is nothing to overlap");
    return data;
}

BarChartData kernelTypeBars(const KernelBreakdown& result)
{
    BarChartData data;
    data.title = tr("GPU time by kernel type (all ranks)");
    data.keyLabel = QString();
    data.valueLabel = tr("Share of GPU busy time (%)");
    data.horizontal = true;
    data.percent = true;
    data.colorPerKey = true;
    data.series = {{tr("share"), QColor(), {}}};
    // Largest share on top: keys grow upwards, so the list is walked backwards.
    const int n = static_cast<int>(result.types.size());
    for (int i = n - 1; i >= 0; --i) {
        const KernelTypeShare& share = result.types[static_cast<size_t>(i)];
        const QString label = fmt::qstr(share.kernelType);
        data.keys.push_back(n - 1 - i);
        data.ids.push_back(-1);
        data.keyLabels.push_back(fmt::elided(label, 40));
        data.keyColors.push_back(palette::kernelTypeSlice(label));
        data.series[0].values.push_back(share.percentage);
        data.tooltips.push_back(tr("%1\n%2 of GPU busy time\n%3 summed over ranks")
                                    .arg(label, fmt::percent(share.percentage), fmt::micros(double(share.sumNs))));
    }
    if (data.keys.isEmpty())
        data.message = errorMessage(result.error, tr("No kernels"));
    return data;
}

BarChartData idleStreamBars(const IdleTime& result, const QVector<IdleRank>& ranks, bool percent)
{
    BarChartData data;
    const bool several = ranks.size() > 1;
    QStringList names;
    for (const IdleRank& rank : ranks)
        names.push_back(rank.name);
    data.title = several ? tr("Idle time on ranks %1 per stream").arg(names.join(QStringLiteral(", ")))
                         : tr("Idle time on rank %1 per stream").arg(names.value(0));
    data.keyLabel = several ? tr("Rank and stream") : tr("Stream");
    const auto wanted = [&](int number) {
        return std::any_of(ranks.begin(), ranks.end(), [&](const IdleRank& r) { return r.number == number; });
    };
    double maxNs = 0;
    for (const IdleTimeRow& row : result.rows)
        if (wanted(row.rank))
            maxNs = std::max(maxNs, double(row.idleNs));
    const TimeUnit unit = unitFor(maxNs);
    data.valueLabel = percent ? tr("Share of idle time (%)") : tr("Idle time (%1)").arg(unit.label);
    data.percent = percent;
    for (int c = 0; c < kIdleCategoryCount; ++c) {
        const auto category = static_cast<IdleCategory>(c);
        data.series.push_back({idleCategoryLabel(category), palette::idleCategory(category), {}});
    }
    // Rows come per rank (in the requested order), then per stream, one per category.
    QVector<QString> lines;
    int lastRank = -1, lastStream = -1;
    for (const IdleTimeRow& row : result.rows) {
        if (!wanted(row.rank))
            continue;
        if (data.keys.isEmpty() || row.rank != lastRank || row.stream != lastStream) {
            lastRank = row.rank;
            lastStream = row.stream;
            data.keys.push_back(data.keys.size());
            data.ids.push_back(several ? int(data.ids.size()) : row.stream);
            data.keyLabels.push_back(several ? tr("r%1 s%2").arg(row.rank).arg(row.stream) : QString::number(row.stream));
            for (BarSeries& s : data.series)
                s.values.push_back(0.0);
            lines.push_back(several ? tr("Rank %1, stream %2").arg(row.rank).arg(row.stream) : tr("Stream %1").arg(row.stream));
        }
        const int c = static_cast<int>(row.category);
        const double ratioPct = std::isfinite(row.ratio) ? row.ratio * 100.0 : 0.0;
        data.series[c].values.back() = percent ? ratioPct : row.idleNs / unit.nsPerUnit;
        lines.back() += QStringLiteral("\n%1: %2 (%3)").arg(fmt::qstr(toString(row.category)),
                                                             fmt::micros(double(row.idleNs)),
                                                             fmt::percent(std::isfinite(row.ratio) ? row.ratio * 100.0 : NAN));
    }
    data.tooltips = QStringList(lines.begin(), lines.end());
    if (data.keys.isEmpty())
        data.message = errorMessage(result.error,
                                    several ? tr("Ranks %1 ran no kernel, memcpy or memset on a GPU stream: no GPU idle time to split")
                                                  .arg(names.join(QStringLiteral(", ")))
                                            : tr("Rank %1 ran no kernel, memcpy or memset on a GPU stream: no GPU idle time to split")
                                                  .arg(names.value(0)));
    return data;
}

BarChartData idleCauseBars(const IdleCauses& result, const IdleRank& rank, bool percent)
{
    // Beside HTA's split per stream, the same streams split by host cause: one stacked bar for the
    // whole rank, then one per stream; a segment's series is its cause, so a click names it.
    BarChartData data;
    data.title = tr("Idle causes on rank %1").arg(rank.name);
    data.keyLabel = tr("Stream");
    data.horizontal = true;
    data.percent = percent;
    std::vector<const IdleCauseRow*> totals;
    for (const IdleCauseRow& row : result.byRank)
        if (row.rank == rank.number)
            totals.push_back(&row);
    if (totals.empty()) {
        data.message = errorMessage(result.error, tr("Rank %1 has no idle gap on a GPU stream").arg(rank.name));
        return data;
    }
    std::vector<int> streams;
    for (const IdleCauseRow& row : result.byStream)
        if (row.rank == rank.number && (streams.empty() || streams.back() != row.stream))
            streams.push_back(row.stream);
    double maxNs = 0;
    for (const IdleCauseRow* row : totals)
        maxNs += double(row->idleNs);
    const TimeUnit unit = unitFor(maxNs);
    data.valueLabel = percent ? tr("Share of idle time (%)") : tr("Idle time (%1)").arg(unit.label);
    const int keyCount = int(streams.size()) + 1;
    for (int k = 0; k < keyCount; ++k) {
        data.keys.push_back(k);
        data.ids.push_back(-1);
        data.keyLabels.push_back(k == 0 ? tr("all") : QString::number(streams[size_t(k - 1)]));
    }
    QStringList lines(keyCount);
    lines[0] = tr("All streams of rank %1").arg(rank.name);
    for (int k = 1; k < keyCount; ++k)
        lines[k] = tr("Stream %1").arg(streams[size_t(k - 1)]);
    for (const IdleCauseRow* total : totals) {
        BarSeries series{fmt::qstr(toString(total->cause)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                         palette::idleCause(total->cause), QVector<double>(keyCount, 0.0), static_cast<int>(total->cause)};
        auto put = [&](int key, const IdleCauseRow& row) {
            series.values[key] = percent ? row.ratio * 100.0 : double(row.idleNs) / unit.nsPerUnit;
            lines[key] += tr("\n%1: %2 in %3 gaps (%4)")
                              .arg(fmt::qstr(toString(row.cause)), fmt::micros(double(row.idleNs)))
                              .arg(row.gaps)
                              .arg(fmt::percent(row.ratio * 100.0));
        };
        put(0, *total);
        for (const IdleCauseRow& row : result.byStream)
            if (row.rank == rank.number && row.cause == total->cause)
                put(1 + int(std::find(streams.begin(), streams.end(), row.stream) - streams.begin()), row);
        data.series.push_back(std::move(series));
    }
    for (QString& line : lines)
        data.tooltips.push_back(line + tr("\nClick a segment to list its cause's gaps"));
    return data;
}

} // namespace kscope
