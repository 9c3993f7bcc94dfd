#include "plots/collectiveadapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/collectives/collectives.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::CollectiveAdapters", text); }

QString noCollectivesMessage(const Collectives& result)
{
    if (!result.error.empty())
        return tr("No result: %1").arg(fmt::qstr(result.error));
    if (result.kernels == 0)
        return tr("No collective kernels (NCCL / RCCL) in this run");
    return tr("No collective ran on two ranks or more");
}

} // namespace

BarChartData collectiveWaitBars(const Collectives& result, const QStringList& rankNames)
{
    BarChartData data;
    data.rankNames = rankNames;
    data.title = tr("Communication per rank: wait for the last rank, transfer");
    data.keyLabel = tr("Rank");
    double maxNs = 0;
    for (const CollectiveRankStats& row : result.perRank)
        maxNs = std::max(maxNs, double(row.commNs));
    const double nsPerUnit = maxNs >= 1e9 ? 1e9 : maxNs >= 1e6 ? 1e6 : 1e3;
    const QString unit = maxNs >= 1e9 ? QStringLiteral("s") : maxNs >= 1e6 ? QStringLiteral("ms") : QStringLiteral("µs");
    data.valueLabel = tr("Time (%1)").arg(unit);
    data.series = {{tr("wait"), palette::idleTime(), {}}, {tr("transfer"), palette::kernelType(KernelType::Communication), {}}};
    for (const CollectiveRankStats& row : result.perRank) {
        if (row.instances == 0)
            continue;
        data.keys.push_back(rankChartId(row.rankIndex));
        data.ids.push_back(rankChartId(row.rankIndex));
        data.series[0].values.push_back(double(row.waitNs) / nsPerUnit);
        data.series[1].values.push_back(double(row.transferNs) / nsPerUnit);
        data.tooltips.push_back(tr("Rank %1 — %2 collectives, %3\nwait: %4\ntransfer: %5\narrived last: %6 times\n"
                                   "mean lateness: %7\ndelay it caused: %8")
                                    .arg(rankNames.value(rankChartId(row.rankIndex)))
                                    .arg(row.instances)
                                    .arg(fmt::micros(double(row.commNs)), fmt::micros(double(row.waitNs)),
                                         fmt::micros(double(row.transferNs)))
                                    .arg(row.lastCount)
                                    .arg(fmt::micros(row.meanLatenessNs()), fmt::micros(double(row.delayCausedNs))));
    }
    if (data.keys.isEmpty())
        data.message = noCollectivesMessage(result);
    else if (result.straggler.rank >= 0)
        data.footnote = tr("Rank %1 arrived last in %2 of %3 collectives").arg(result.straggler.rank)
                            .arg(result.straggler.lastCount).arg(result.straggler.instances);
    return data;
}

HeatMapData collectiveLatenessMap(const Collectives& result, const QStringList& rankNames)
{
    HeatMapData data;
    data.title = tr("Mean lateness at collectives per rank and step");
    data.xLabel = tr("ProfilerStep");
    data.yLabel = tr("Rank");
    data.valueLabel = tr("mean lateness (µs)");
    std::map<int, int> column, row;  // step -> column, RankIndex value -> row
    std::map<int, int> numberOfRow;
    for (const CollectiveRankStats& s : result.perRankStep) {
        if (s.step < 0 || s.instances == 0)
            continue;
        column.emplace(s.step, 0);
        row.emplace(rankChartId(s.rankIndex), 0);
        numberOfRow[rankChartId(s.rankIndex)] = s.rank;
    }
    for (auto& [step, index] : column) {
        index = int(data.xKeys.size());
        data.xKeys << step;
    }
    for (auto& [rank, index] : row) {
        index = int(data.yKeys.size());
        data.yKeys << rank;  // a RankIndex value: what a click on the row selects
        const QString name = rankNames.value(rank, QString::number(numberOfRow[rank]));
        data.yLabels << (numberOfRow[rank] == result.straggler.rank ? tr("%1 ⚑").arg(name) : name);
    }
    data.values = QVector<double>(data.xKeys.size() * data.yKeys.size(), NAN);
    for (const CollectiveRankStats& s : result.perRankStep)
        if (s.step >= 0 && s.instances > 0)
            data.values[row[rankChartId(s.rankIndex)] * data.xKeys.size() + column[s.step]] = s.meanLatenessNs() / 1e3;
    if (data.xKeys.isEmpty())
        data.message = result.perRank.empty() ? noCollectivesMessage(result) : tr("No collective falls inside a ProfilerStep");
    else if (result.straggler.rank >= 0)
        data.footnote = tr("⚑ the rank that arrived last most often");
    return data;
}

} // namespace kscope
