// kinetoscope-cli info: one row per rank with what was loaded and what went wrong.

#include "command.h"

#include <algorithm>
#include <iostream>
#include <set>

namespace kscope::cli {

namespace {

std::string issuesOf(const Run& run, const RankTrace& rank)
{
    std::string text;
    auto add = [&text](const std::string& s) {
        if (!text.empty())
            text += "; ";
        text += s;
    };
    for (const LoadError& e : run.errors)
        if (e.file == rank.file)
            add(std::string(toString(e.kind)) + " at byte " + std::to_string(e.byteOffset));
    for (const BadEventCounter& c : rank.badEvents)
        add(std::to_string(c.count) + " " + toString(c.kind));
    for (const LoadWarning& w : run.warnings)
        if (w.file == rank.file)
            add(w.message);
    return text;
}

int runInfo(const Arguments& args)
{
    int exitCode = kExitOk;
    auto run = loadRunForCommand(args, exitCode);
    if (!run)
        return exitCode;
    Table table;
    table.columns = {"rank", "file", "events", "gpu_kernels", "memcpy", "memset", "cpu_ops", "runtime_calls",
                     "streams", "device_name", "device_type", "first_ts_ns", "last_ts_ns", "span_us", "steps",
                     "import_issues"};
    for (const RankTrace& r : run->ranks) {
        const EventTable& t = r.events;
        int64_t kernels = 0, memcpy = 0, memset = 0, cpuOps = 0, runtime = 0;
        std::set<int32_t> streams;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (size_t i = 0; i < t.size(); ++i) {
            switch (t.kind[i]) {
            case EventKind::Kernel: ++kernels; break;
            case EventKind::Memcpy: ++memcpy; break;
            case EventKind::Memset: ++memset; break;
            case EventKind::CpuOp: ++cpuOps; break;
            case EventKind::Runtime:
            case EventKind::Driver: ++runtime; break;
            default: break;
            }
            if (t.stream[i] >= 0)
                streams.insert(t.stream[i]);
            if (t.kind[i] == EventKind::TraceSpan)
                continue;
            first = std::min(first, t.tsNs[i]);
            last = std::max(last, t.tsNs[i] + t.durNs[i]);
        }
        std::set<int32_t> steps;
        for (const ProfilerStep& s : r.steps)
            steps.insert(s.number);
        std::string stepText;
        if (!steps.empty())
            stepText = std::to_string(*steps.begin()) + (steps.size() > 1 ? "-" + std::to_string(*steps.rbegin()) : "")
                + " (" + std::to_string(steps.size()) + ")";
        const std::string device = r.metadata.devices.empty() ? "" : r.metadata.devices.front().name;
        const bool any = first != INT64_MAX;
        table.addRow({int64_t{r.rank}, r.file.filename().string(), static_cast<int64_t>(t.size()), kernels, memcpy,
                      memset, cpuOps, runtime, static_cast<int64_t>(streams.size()), device,
                      std::string(toString(r.deviceType)), any ? Cell{first} : Cell{}, any ? Cell{last} : Cell{},
                      any ? Cell{static_cast<double>(last - first) / 1000.0} : Cell{}, stepText, issuesOf(*run, r)});
    }
    for (const LoadError& e : run->errors)
        if (!e.partial)
            table.notes.push_back(e.file.filename().string() + ": " + toString(e.kind) + " at byte "
                                  + std::to_string(e.byteOffset) + ": " + e.message);
    for (const auto& skipped : run->skippedFiles)
        table.notes.push_back("skipped (not a trace file): " + skipped.filename().string());
    return emitRunTable(table, *run, args);
}

const CommandRegistrar kRegistrar{{"info", "One row per rank: events, kernels, streams, device, span, steps, import issues",
                                   "[options] RUN_DIR", &runInfo}};

} // namespace

} // namespace kscope::cli
