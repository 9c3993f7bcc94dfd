// kinetoscope-cli counters RUN --out DIR: each rank's trace with queue-length and bandwidth counter
// tracks (HTA's generate_trace_with_counters); cupti-counters RUN: CUPTI range-profiler counters
// per kernel with its operators (HTA's get_cupti_counter_data_with_operators).

#include "command.h"

#include "analysis/launch/countertrace.h"
#include "analysis/launch/cupticounters.h"
#include "analysis/tables/launchtables.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace kscope::cli {

namespace {

struct CounterArgs {
    CounterTraceOptions options;
    std::string outputDir;
    std::string kinds = "queue-length,memory-bw";
};

bool parseKinds(const std::string& text, bool& queue, bool& bandwidth)
{
    queue = bandwidth = false;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        if (item == "queue-length")
            queue = true;
        else if (item == "memory-bw")
            bandwidth = true;
        else
            return false;
        pos = comma + 1;
    }
    return queue || bandwidth;
}

Action setupCounters(CLI::App& app, const Invocation& invocation)
{
    auto args = std::make_shared<CounterArgs>();
    app.add_option("--out", args->outputDir, "write the traces into this folder (made if missing)")
        ->required()
        ->type_name("DIR");
    app.add_option("--kind", args->kinds, "which counters: queue-length, memory-bw or both")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                bool q = false, b = false;
                return parseKinds(text, q, b) ? std::string()
                                              : "expects queue-length, memory-bw or queue-length,memory-bw, got '" + text + "'";
            },
            ""))
        ->type_name("LIST")
        ->capture_default_str();
    app.add_option("--suffix", args->options.suffix, "put before .json in each output's name (HTA's output_suffix)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return text.empty() || text.find('/') != std::string::npos ? "expects a non-empty name part without '/'"
                                                                           : std::string();
            },
            ""))
        ->type_name("TEXT")
        ->capture_default_str();
    return [args, &invocation] {
        args->options.htaCompat = invocation.common.htaCompat;
        args->options.outputDir = args->outputDir;
        parseKinds(args->kinds, args->options.queueLength, args->options.memoryBandwidth);
        bool failed = false;
        const int code = runAnalysis(invocation, [&](const Run& run) {
            const CounterTraces result = writeTracesWithCounters(run, args->options);
            failed = !result.error.empty();
            for (const CounterTraceFile& f : result.files)
                failed |= !f.error.empty();
            return counterTracesTable(result);
        });
        return code == kExitOk && failed ? int(kExitOutputFailed) : code;
    };
}

Action setupCupti(CLI::App&, const Invocation& invocation)
{
    return [&invocation] {
        const TableStyle style{.dropFirst = {"peak_fp32_flops_per_cycle", "dram_bytes", "arithmetic_intensity",
                                             "op_stack", "top_level_op"}};
        return runAnalysis(
            invocation,
            [&](const Run& run) {
                return cuptiCountersTable(run, cuptiCounters(run, {.htaCompat = invocation.common.htaCompat}));
            },
            style);
    };
}

const CommandRegistrar kCountersRegistrar{
    {"counters", "Write each rank's trace with queue-length and memcpy-bandwidth counter tracks (HTA)",
     "For Perfetto or chrome://tracing: each rank's trace file is copied to DIR with \"ph\": \"C\" events\n"
     "added (\"Queue Length\" per stream, with id = stream; one per copy kind, arg \"Memcpy BW\"), named\n"
     "like its input with --suffix before .json (gzip stays gzip). The input is never modified; the\n"
     "copy is its bytes with the events spliced in, so it streams. Every rank by default (HTA: rank\n"
     "0). --hta-compat: HTA's events exactly (ts rounded to us) and, as HTA, always gzip-compressed,\n"
     "even under a .json name; default: exact ns, one point per time.\n"
     "Do not write into the run's own folder: the copies would load as extra ranks.",
     &setupCounters}};

const CommandRegistrar kCuptiRegistrar{
    {"cupti-counters", "CUPTI range-profiler counters per kernel with its operator stack, FLOPs (HTA)",
     "For traces taken in CUPTI's range-profiler mode (cuda_profiler_range events): one row per kernel\n"
     "with name, ts, dur, each counter under its CUPTI name, op_stack (the cpu_ops around its launch,\n"
     "outermost first, ';'-separated), top_level_op, bottom_level_op; then rank, flops (the SASS\n"
     "f/h/d add, mul, fma thread-instruction counters, fma = 2), flops_per_s, dram_bytes,\n"
     "arithmetic_intensity (FLOP/byte) and peak_fp32_flops_per_cycle (from deviceProperties). Kernels\n"
     "and cudaLaunchKernel calls are paired by order, as HTA does; a rank where their counts differ\n"
     "is left out with a note.",
     &setupCupti}};

} // namespace

} // namespace kscope::cli
