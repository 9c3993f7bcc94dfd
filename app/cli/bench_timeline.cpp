#include "benchtimeline.h"
#include "benchtimer.h"

#include "analysis/timeline/timelineindex.h"

#include <algorithm>
#include <chrono>
#include <string>

namespace kscope::cli {

namespace {

constexpr int kFramePixels = 1600;  // a wide window's timeline

struct Frame {
    double ms = 0;
    size_t items = 0;
};

// Every row's items for one window, as a frame asks for them.
Frame queryFrame(const Run& run, const TimelineIndex& index, int64_t fromNs, int64_t toNs)
{
    const auto start = std::chrono::steady_clock::now();
    Frame frame;
    const double nsPerPixel = double(toNs - fromNs) / kFramePixels;
    for (const TimelineRow& row : index.rows)
        frame.items += timelineItems(run, row, fromNs, toNs, nsPerPixel).size();
    frame.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return frame;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

TimelineFrameBench& timelineFrameBench()
{
    static TimelineFrameBench bench = nullptr;
    return bench;
}

std::vector<std::vector<Cell>> timelineBenchRows(const Run& run)
{
    auto built = std::make_shared<TimelineIndex>();
    TimelineIndex& index = *built;
    const double buildMs = bestSeconds([&] { index = buildTimelineIndex(run); }) * 1000.0;
    std::vector<std::vector<Cell>> rows;
    rows.push_back({std::string("timeline_rows"), static_cast<int64_t>(index.rows.size()), std::string("")});
    rows.push_back({std::string("timeline_events"), static_cast<int64_t>(index.events), std::string("")});
    rows.push_back({std::string("index_build"), buildMs, std::string("ms")});
    rows.push_back({std::string("index_bytes_per_event"),
                    index.events ? double(index.residentBytes()) / double(index.events) : 0.0, std::string("B/event")});
    if (index.rows.empty())
        return rows;

    std::vector<double> all;
    const auto timed = [&](int64_t from, int64_t to) {
        Frame best{1e300, 0};
        for (int k = 0; k < 3; ++k) {
            const Frame f = queryFrame(run, index, from, to);
            if (f.ms < best.ms)
                best = f;
        }
        all.push_back(best.ms);
        return best;
    };
    const Frame full = timed(index.beginNs, index.endNs + 1);
    rows.push_back({std::string("query_full_zoom_out"), full.ms, std::string("ms")});
    rows.push_back({std::string("items_full_zoom_out"), static_cast<int64_t>(full.items), std::string("")});
    // The middle step of the first rank that has steps.
    for (const RankTrace& rank : run.ranks)
        if (!rank.steps.empty()) {
            const ProfilerStep& step = rank.steps[rank.steps.size() / 2];
            const Frame one = timed(step.startNs, step.endNs);
            rows.push_back({std::string("query_one_step"), one.ms, std::string("ms")});
            rows.push_back({std::string("items_one_step"), static_cast<int64_t>(one.items), std::string("")});
            break;
        }
    std::vector<double> windows;
    constexpr int kWindows = 20;
    for (int k = 0; k < kWindows; ++k) {
        const int64_t from = index.beginNs + (index.endNs - index.beginNs) / kWindows * k;
        windows.push_back(timed(from, from + 100000).ms);
    }
    rows.push_back({std::string("query_100us_median"), median(windows), std::string("ms")});
    rows.push_back({std::string("query_median"), median(all), std::string("ms")});
    rows.push_back({std::string("query_worst"), *std::max_element(all.begin(), all.end()), std::string("ms")});
    if (const TimelineFrameBench frames = timelineFrameBench()) {
        // The run outlives the call: shared without owning it.
        for (auto& row : frames(std::shared_ptr<const Run>(std::shared_ptr<const Run>{}, &run), built))
            rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace kscope::cli
