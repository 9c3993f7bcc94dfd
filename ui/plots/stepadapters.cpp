#include "plots/stepadapters.h"

#include "common/format.h"

#include "analysis/patterns/steps.h"
#include "model/trace.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::StepAdapters", text); }

} // namespace

HeatMapData stepTimeMap(const ProfilerSteps& steps, const Stragglers& stragglers, const Run& whole, bool gpu)
{
    HeatMapData data;
    data.title = gpu ? tr("GPU time of each step per rank") : tr("CPU time of each step per rank");
    data.xLabel = tr("ProfilerStep");
    data.yLabel = tr("Rank");
    std::map<int, int> column;  // step number -> column
    for (int step : steps.steps) {
        column[step] = int(data.xKeys.size());
        data.xKeys << step;
    }
    std::map<RankIndex, int> row;
    for (const StepSpan& span : steps.spans)
        if (row.emplace(span.rankIndex, int(data.yKeys.size())).second) {
            data.yKeys << rankChartId(span.rankIndex);
            const QString name = fmt::qstr(whole.rankName(span.rankIndex));
            const bool straggler = std::find(stragglers.ranks.begin(), stragglers.ranks.end(), whole.at(span.rankIndex).rank)
                                   != stragglers.ranks.end();
            data.yLabels << (straggler ? tr("%1 ⚑").arg(name) : name);
        }
    const int columns = int(data.xKeys.size());
    const StepClock clock = gpu ? StepClock::Gpu : StepClock::Cpu;
    QVector<double> ms(columns * data.yKeys.size(), NAN);
    for (const StepSpan& span : steps.spans) {
        const auto c = column.find(span.step);
        if (c != column.end())
            ms[row[span.rankIndex] * columns + c->second] = stepTimeNs(span, clock) / 1e6;
    }
    // Several ranks: each cell is its step time against the step's median across ranks, so a
    // slow rank stands out whatever the steps' own variance, and 0.1 % reads as nothing.
    // One rank: the step times themselves, from 0.
    const bool relative = data.yKeys.size() > 1;
    const StepTimeStats stats = stepTimeStats(steps, clock);
    data.values = QVector<double>(ms.size(), NAN);
    data.tooltips = QStringList(ms.size(), QString());
    for (int c = 0; c < columns; ++c) {
        const auto stepMedian = stats.medianOfStep.find(int(data.xKeys[c]));
        const double median = stepMedian == stats.medianOfStep.end() ? NAN : stepMedian->second / 1e6;
        for (int r = 0; r < data.yKeys.size(); ++r) {
            const int cell = r * columns + c;
            const double v = ms[cell];
            if (!std::isfinite(v)) {
                data.tooltips[cell] = tr("rank %1, step %2: no %3 time").arg(data.yLabels[r]).arg(data.xKeys[c]).arg(gpu ? tr("GPU") : tr("CPU"));
                continue;
            }
            const double deviation = median > 0 ? 100.0 * (v - median) / median : 0.0;
            data.values[cell] = relative ? deviation : v;
            data.tooltips[cell] = relative ? tr("rank %1, step %2: %3 ms (%4%5 % vs the step's median, %6 ms)")
                                                 .arg(data.yLabels[r])
                                                 .arg(data.xKeys[c])
                                                 .arg(v, 0, 'f', 3)
                                                 .arg(deviation >= 0 ? QStringLiteral("+") : QString())
                                                 .arg(deviation, 0, 'f', 2)
                                                 .arg(median, 0, 'f', 3)
                                           : tr("rank %1, step %2: %3 ms").arg(data.yLabels[r]).arg(data.xKeys[c]).arg(v, 0, 'f', 3);
        }
    }
    if (relative) {
        data.title = gpu ? tr("GPU time of each step per rank, vs the step's median across ranks")
                         : tr("CPU time of each step per rank, vs the step's median across ranks");
        data.valueLabel = tr("vs median (%)");
        data.scale = HeatScale::Diverging;
        data.minimumSpan = 5.0;  // within 5 % reads as alike
    } else {
        data.valueLabel = tr("step time (ms)");
    }
    if (data.xKeys.isEmpty())
        data.message = steps.error.empty() ? tr("The run has no ProfilerStep") : fmt::qstr(steps.error);
    if (!stragglers.ranks.empty())
        data.footnote = tr("⚑ potential straggler (HTA's late-start rule on %1)").arg(fmt::qstr(whole.str(stragglers.kernel)));
    return data;
}

} // namespace kscope
