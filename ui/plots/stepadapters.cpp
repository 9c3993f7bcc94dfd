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
    data.title = gpu ? tr("GPU time of each step per rank (ms)") : tr("CPU time of each step per rank (ms)");
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
    data.values = QVector<double>(data.xKeys.size() * data.yKeys.size(), NAN);
    for (const StepSpan& span : steps.spans) {
        const auto c = column.find(span.step);
        if (c == column.end())
            continue;
        const double ms = (gpu ? (span.hasGpu() ? double(span.gpuNs()) : NAN) : double(span.cpuNs())) / 1e6;
        data.values[row[span.rankIndex] * data.xKeys.size() + c->second] = ms;
    }
    if (data.xKeys.isEmpty())
        data.message = steps.error.empty() ? tr("The run has no ProfilerStep") : fmt::qstr(steps.error);
    if (!stragglers.ranks.empty())
        data.footnote = tr("⚑ potential straggler (HTA's late-start rule on %1)").arg(fmt::qstr(whole.str(stragglers.kernel)));
    return data;
}

} // namespace kscope
