#include "plots/launchadapters.h"

#include "common/format.h"
#include "plots/downsample.h"
#include "plots/palette.h"

#include "analysis/launch/launchstats.h"
#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace kscope {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("kscope::LaunchAdapters", text); }

// Step series of one rank from the run's time origin (its first event, as every view counts),
// thinned for drawing.
template <typename Series, typename Name, typename Value>
SeriesChartData stepLines(const std::vector<Series>& all, RankIndex rank, int64_t origin, int buckets, Name name,
                          Value value)
{
    SeriesChartData data;
    int index = 0;
    for (const Series& s : all) {
        if (s.rankIndex != rank || s.tsNs.empty())
            continue;
        QVector<double> keys, values;
        keys.reserve(qsizetype(s.tsNs.size()));
        values.reserve(qsizetype(s.tsNs.size()));
        for (size_t i = 0; i < s.tsNs.size(); ++i) {
            keys.push_back(double(s.tsNs[i] - origin) / 1e6);
            values.push_back(value(s, i));
        }
        LineSeries line{name(s), palette::series(index++), {}, {}};
        downsampleSteps(keys, values, buckets, line.keys, line.values);
        data.series.push_back(std::move(line));
    }
    data.keyLabel = tr("Time since the run's first event (ms)");
    return data;
}

} // namespace

HistogramData launchHistogramData(const LaunchHistogram& histogram, const QString& title, const QString& keyLabel)
{
    HistogramData data;
    data.title = tr("%1 (%2)").arg(title).arg(histogram.total);  // the axis says they are launches
    data.keyLabel = keyLabel;
    data.valueLabel = tr("Launches");
    if (histogram.edgesUs.size() < 2) {
        data.message = tr("No launch in this view");
        return data;
    }
    data.edges = QVector<double>(histogram.edgesUs.begin(), histogram.edgesUs.end());
    data.countNoun = tr("launches");
    HistogramSeries series{QString(), palette::idleTime(), {}};
    for (int64_t count : histogram.counts)
        series.counts.push_back(double(count));
    data.series.push_back(series);
    return data;
}

SeriesChartData queueSeriesData(const QueueLength& result, RankIndex rank, const QString& rankName, int64_t originNs,
                                int buckets)
{
    SeriesChartData data = stepLines(
        result.series, rank, originNs, buckets, [](const QueueSeries& s) { return tr("stream %1").arg(s.stream); },
        [](const QueueSeries& s, size_t i) { return double(s.length[i]); });
    data.title = tr("Launch queue length on rank %1").arg(rankName);
    data.valueLabel = tr("Queued launches");
    if (data.series.isEmpty())
        data.message = result.error.empty() ? tr("Rank %1 launched nothing onto a GPU stream").arg(rankName)
                                            : tr("No result: %1").arg(fmt::qstr(result.error));
    return data;
}

SeriesChartData bandwidthSeriesData(const MemoryBandwidth& result, RankIndex rank, const QString& rankName,
                                    int64_t originNs, int buckets)
{
    SeriesChartData data = stepLines(
        result.series, rank, originNs, buckets, [](const MemoryBwSeries& s) { return fmt::qstr(s.kind); },
        [](const MemoryBwSeries& s, size_t i) { return s.gbps[i]; });
    data.title = tr("Memory copy bandwidth on rank %1").arg(rankName);
    data.valueLabel = tr("GB/s");
    if (data.series.isEmpty())
        data.message = result.error.empty() ? tr("Rank %1 ran no memcpy or memset").arg(rankName)
                                            : tr("No result: %1").arg(fmt::qstr(result.error));
    return data;
}

} // namespace kscope
