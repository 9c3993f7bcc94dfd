// `bench timeline`'s frames: the Timeline view's widget draws the run offscreen (1600 × 900) at
// full zoom-out, at one step and at 100 µs windows, first as it opens (CPU threads folded, no
// counter tracks), then with every rank's threads open and the counter tracks on. Each frame is a
// whole paint: rows, labels, axis, overview, overlays.

#include "cli/benchtimeline.h"
#include "report/offscreenapp.h"

#include "plots/timelinewidget.h"

#include "analysis/launch/memorybandwidth.h"
#include "analysis/launch/queuelength.h"
#include "analysis/operators/memory.h"
#include "analysis/timeline/timelinetracks.h"

#include <QImage>

#include <algorithm>
#include <chrono>

namespace kscope::cli {

namespace {

double medianOf(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

std::vector<std::vector<Cell>> drawFrames(std::shared_ptr<const Run> run, std::shared_ptr<const TimelineIndex> index)
{
    std::unique_ptr<QApplication> app;
    if (!QApplication::instance())
        app = offscreenApplication();
    const QSize size(1600, 900);
    TimelineWidget widget;
    widget.resize(size);
    widget.setData(run, index);
    const qint64 origin = run->minTsNs;
    // The windows: the whole run, the middle step of the first rank with steps, 100 µs windows
    // spread over the run.
    std::vector<std::pair<qint64, qint64>> windows;
    windows.emplace_back(index->beginNs - origin, index->endNs - origin);
    for (const RankTrace& rank : run->ranks)
        if (!rank.steps.empty()) {
            const ProfilerStep& step = rank.steps[rank.steps.size() / 2];
            windows.emplace_back(step.startNs - origin, step.endNs - origin);
            break;
        }
    constexpr int kShortWindows = 8;
    for (int k = 0; k < kShortWindows; ++k) {
        const qint64 from = index->beginNs - origin + (index->endNs - index->beginNs) / kShortWindows * k;
        windows.emplace_back(from, from + 100000);
    }
    const auto frameMs = [&](std::pair<qint64, qint64> window) {
        widget.setWindow(window.first, window.second);
        double best = 1e300;
        for (int k = 0; k < 3; ++k) {
            const auto start = std::chrono::steady_clock::now();
            const QImage image = widget.toImage(size);
            best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        return best;
    };
    std::vector<std::vector<Cell>> rows;
    std::vector<double> all;
    const auto pass = [&](const std::string& suffix) {
        std::vector<double> frames;
        for (const auto& window : windows)
            frames.push_back(frameMs(window));
        rows.push_back({"frame_full_zoom_out" + suffix, frames.front(), std::string("ms")});
        if (windows.size() > 1 + kShortWindows)
            rows.push_back({"frame_one_step" + suffix, frames[1], std::string("ms")});
        rows.push_back({"frame_100us_median" + suffix,
                        medianOf({frames.end() - kShortWindows, frames.end()}), std::string("ms")});
        all.insert(all.end(), frames.begin(), frames.end());
    };
    pass("");
    // Everything open: every rank's CPU threads, and the counter tracks the view computes.
    const QueueLength queue = queueLength(*run, QueueLengthOptions{});
    const MemoryBandwidth bandwidth = memoryBandwidth(*run, MemoryBandwidthOptions{});
    MemoryOptions memoryOptions;
    memoryOptions.perOp = false;
    const MemoryTimeline memory = memoryTimeline(*run, memoryOptions);
    auto tracks = std::make_shared<const std::vector<CounterTrack>>(timelineCounterTracks(*run, &queue, &bandwidth, &memory));
    rows.push_back({std::string("counter_tracks"), static_cast<int64_t>(tracks->size()), std::string("")});
    widget.setCounterTracks(tracks);
    widget.setCpuThreadsShownEverywhere(true);
    rows.push_back({std::string("timeline_lines_unfolded"), static_cast<int64_t>(widget.lineCount()), std::string("")});
    pass("_unfolded_counters");
    rows.push_back({std::string("frame_median"), medianOf(all), std::string("ms")});
    rows.push_back({std::string("frame_worst"), *std::max_element(all.begin(), all.end()), std::string("ms")});
    return rows;
}

const bool kRegistered = (timelineFrameBench() = &drawFrames, true);

} // namespace

} // namespace kscope::cli
