#include "plots/memoryadapters.h"

#include "common/format.h"
#include "plots/palette.h"

#include "analysis/operators/memory.h"
#include "model/trace.h"

#include <QCoreApplication>

#include <algorithm>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::MemoryAdapters", text); }

} // namespace

SeriesChartData memorySeriesData(const MemoryTimeline& result, const Run& run, RankIndex shown)
{
    SeriesChartData data;
    if (!run.has(shown))
        return data;
    // The result was asked for this one rank trace: its devices carry its number.
    const int rank = run.at(shown).rank;
    data.title = tr("GPU memory on rank %1").arg(fmt::qstr(run.rankName(shown)));
    data.keyLabel = tr("Time since the run's first event (ms)");
    data.steps = true;
    int64_t top = 0;
    // The GPU chart shows GPU devices: host allocations (device type 0) would squash them.
    const auto onGpu = [&](const MemoryDevice& d) { return d.device.rank == rank && d.device.type != 0; };
    int cpuDevices = 0;
    for (const MemoryDevice& d : result.devices) {
        if (onGpu(d))
            top = std::max(top, std::max(d.peakAllocated, d.peakReserved));
        cpuDevices += d.device.rank == rank && d.device.type == 0;
    }
    // Decimal units, as fmt::bytes() writes the peak's label.
    const bool gb = top >= 1000000000;
    const double perUnit = gb ? 1e9 : 1e6;
    data.valueLabel = gb ? tr("GB") : tr("MB");
    const auto ms = [&](int64_t tsNs) { return double(tsNs - run.minTsNs) / 1e6; };
    int n = 0;
    for (const MemoryDevice& d : result.devices) {
        if (!onGpu(d) || d.series.empty())
            continue;
        const QString device = fmt::qstr(toString(d.device));
        LineSeries allocated{tr("%1 allocated").arg(device), palette::series(2 * n), {}, {}};
        LineSeries reserved{tr("%1 reserved").arg(device), palette::series(2 * n + 1), {}, {}};
        for (const MemoryPoint& p : d.series) {
            allocated.keys << ms(p.tsNs);
            allocated.values << double(p.allocated) / perUnit;
            if (d.reservedKnown) {
                reserved.keys << ms(p.tsNs);
                reserved.values << double(p.reserved) / perUnit;
            }
        }
        if (d.reservedKnown)
            data.series << reserved;
        data.series << allocated;
        data.markers << PointMarker{ms(d.peakAllocatedNs), double(d.peakAllocated) / perUnit,
                                    tr("peak %1").arg(fmt::bytes(uint64_t(d.peakAllocated)))};
        ++n;
    }
    for (const ProfilerStep& step : run.at(shown).steps)
        data.bands << KeyBand{ms(step.startNs), ms(step.endNs), QStringLiteral("#%1").arg(step.number)};
    if (cpuDevices > 0)
        data.footnote = tr("host (CPU) allocations are in the tables, not in this GPU chart");
    if (data.series.isEmpty())
        data.message = !result.error.empty() ? tr("No result: %1").arg(fmt::qstr(result.error))
            : cpuDevices > 0                 ? tr("Rank %1 recorded only host (CPU) allocations: see the tables").arg(rank)
                                             : tr("Rank %1 has no [memory] events: record with profile_memory=True").arg(rank);
    return data;
}

} // namespace kscope
