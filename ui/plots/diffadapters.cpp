#include "plots/diffadapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/core/kerneltype.h"
#include "analysis/diff/tracediff.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kscope {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("kscope::DiffAdapters", text); }
} // namespace

BarChartData opChangeBars(const TraceComparison& comparison, const QString& controlLabel, const QString& testLabel,
                          int maxOps)
{
    BarChartData data;
    data.title = tr("Largest changes in total time: %1 vs %2").arg(controlLabel, testLabel);
    data.valueLabel = comparison.averaged() ? tr("Time per rank and step") : tr("Total time");
    data.horizontal = true;
    data.grouped = true;
    // Which ops to draw is a choice of what fits on screen, not a result: the table has them all.
    std::vector<size_t> order(comparison.rows.size());
    std::iota(order.begin(), order.end(), size_t{0});
    const auto change = [&](size_t i) { return std::abs(comparison.diffDurNs(comparison.rows[i])); };
    // The step annotation is the step itself: its change is the step time's, which the headline
    // gives; as a bar it would crowd out the ops that made it.
    std::erase_if(order, [&](size_t i) { return comparison.rows[i].name.starts_with("ProfilerStep#"); });
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return change(a) > change(b); });
    order.resize(std::min(order.size(), size_t(std::max(maxOps, 0))));
    std::erase_if(order, [&](size_t i) { return change(i) == 0.0; });

    double largest = 0.0;
    for (size_t i : order) {
        const OpDiffRow& row = comparison.rows[i];
        largest = std::max({largest, comparison.controlDurNs(row), comparison.testDurNs(row), change(i)});
    }
    const double unit = largest >= 1e9 ? 1e9 : largest >= 1e6 ? 1e6 : 1e3;
    const QString unitName = largest >= 1e9 ? QStringLiteral("s") : largest >= 1e6 ? QStringLiteral("ms") : QStringLiteral("µs");
    data.valueLabel += QStringLiteral(" (%1)").arg(unitName);
    data.series = {{controlLabel, palette::diffControl(), {}}, {testLabel, palette::diffTest(), {}},
                   {tr("difference"), palette::diffChange(), {}}};
    // Largest change on top: keys grow upwards.
    for (int k = int(order.size()) - 1; k >= 0; --k) {
        const OpDiffRow& row = comparison.rows[order[size_t(k)]];
        const QString name = fmt::qstr(row.name);
        data.keys.push_back(double(order.size()) - 1 - k);
        data.ids.push_back(-1);
        data.keyLabels.push_back(fmt::elided(fmt::qstr(comparison.shortNames ? row.name : shortenKernelName(row.name)), 36));
        data.series[0].values.push_back(comparison.controlDurNs(row) / unit);
        data.series[1].values.push_back(comparison.testDurNs(row) / unit);
        data.series[2].values.push_back(comparison.diffDurNs(row) / unit);
        data.tooltips.push_back(tr("%1\n%2: %3 (%4 calls)\n%5: %6 (%7 calls)\ndifference: %8")
                                    .arg(name, controlLabel, fmt::micros(comparison.controlDurNs(row)))
                                    .arg(comparison.controlCount(row))
                                    .arg(testLabel, fmt::micros(comparison.testDurNs(row)))
                                    .arg(comparison.testCount(row))
                                    .arg(fmt::micros(comparison.diffDurNs(row))));
    }
    if (data.keys.isEmpty())
        data.message = comparison.error.empty() ? tr("No op changed its total time") : tr("No result: %1").arg(fmt::qstr(comparison.error));
    return data;
}

} // namespace kscope
