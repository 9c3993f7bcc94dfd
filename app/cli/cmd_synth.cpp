// kinetoscope-cli synth: writes a synthetic run with known truth (see model/synth/synthrun.h).

#include "command.h"

#include "model/synth/synthrun.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

namespace kscope::cli {

namespace {

namespace fs = std::filesystem;

struct SynthArgs {
    SynthOptions options;
    std::string outDir;
    std::string device = "nvidia";
    std::string sizePerRank;
    std::string memoryBaseline;
    std::string memoryLeak;
    bool force = false;
    bool noSeq = false;
    int64_t clockSkewUs = 0;
};

bool isTraceOrTruth(const fs::path& path)
{
    const std::string name = path.filename().string();
    return name.ends_with(".json") || name.ends_with(".json.gz");
}

// A run folder must not mix old ranks with new ones: refuses a non-empty folder, or with --force
// removes its trace files and truth/truth.json first. Empty string when the folder may be written.
std::string prepareOutDir(const fs::path& dir, bool force)
{
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return {};
    if (!fs::is_directory(dir, ec))
        return dir.string() + " exists and is not a folder";
    std::vector<fs::path> entries;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
        entries.push_back(entry.path());
    if (ec)
        return "cannot read " + dir.string() + ": " + ec.message();
    if (entries.empty())
        return {};
    std::sort(entries.begin(), entries.end());
    if (!force) {
        std::string list;
        for (size_t i = 0; i < entries.size() && i < 5; ++i)
            list += (i ? ", " : "") + entries[i].filename().string();
        if (entries.size() > 5)
            list += ", ...";
        return dir.string() + " is not empty (" + std::to_string(entries.size()) + " entries: " + list
            + "); give an empty or new folder, or --force to replace its trace and truth files";
    }
    size_t removed = 0;
    auto remove = [&](const fs::path& file) {
        if (fs::is_regular_file(file, ec) && isTraceOrTruth(file) && fs::remove(file, ec))
            ++removed;
        return !ec;
    };
    for (const fs::path& entry : entries)
        if (!remove(entry))
            return "cannot remove " + entry.string() + ": " + ec.message();
    if (!remove(dir / "truth" / "truth.json"))
        return "cannot remove " + (dir / "truth" / "truth.json").string() + ": " + ec.message();
    std::cerr << "--force: removed " << removed << " old trace and truth files from " << dir.string() << '\n';
    return {};
}

int runSynth(const SynthArgs& args)
{
    SynthOptions options = args.options;
    if (options.stragglerRank >= options.ranks) {
        std::cerr << "error: --straggler: expects a rank from -1 to " << options.ranks - 1 << " (--ranks "
                  << options.ranks << "), got " << options.stragglerRank << '\n';
        return kExitUsage;
    }
    if (options.slowKernelRank >= options.ranks) {
        std::cerr << "error: --slow-kernel-rank: expects a rank from -2 to " << options.ranks - 1 << " (--ranks "
                  << options.ranks << "), got " << options.slowKernelRank << '\n';
        return kExitUsage;
    }
    if (!args.sizePerRank.empty())
        parseByteSize(args.sizePerRank, options.sizePerRank);
    if (!args.memoryBaseline.empty())
        parseByteSize(args.memoryBaseline, options.memoryBaselineBytes);
    if (!args.memoryLeak.empty())
        parseByteSize(args.memoryLeak, options.memoryLeakPerStep);
    options.memoryEvents |= !args.memoryBaseline.empty() || options.memoryLeakPerStep > 0;
    if (options.eventsPerRank > 0 && options.sizePerRank > 0) {
        std::cerr << "error: give --events-per-rank or --size-per-rank, not both\n";
        return kExitUsage;
    }
    options.device = args.device == "amd" ? SynthOptions::Device::Amd : SynthOptions::Device::Nvidia;
    if (const std::string refused = prepareOutDir(args.outDir, args.force); !refused.empty()) {
        std::cerr << "error: " << refused << '\n';
        return kExitUsage;
    }

    const SynthResult result = writeSynthRun(args.outDir, options);
    if (!result.ok) {
        std::cerr << "error: " << result.error << '\n';
        return kExitNoRank;
    }
    const double mb = double(result.jsonBytes) / 1e6;
    char line[256];
    std::snprintf(line, sizeof line,
                  "wrote %zu ranks x %d steps (last one is the warm-down step HTA trims): %llu events, "
                  "%.1f MB of JSON, %.1f MB on disk in %.2f s (%.0f MB/s of JSON)\n",
                  result.files.size(), result.stepsPerRank, static_cast<unsigned long long>(result.events), mb,
                  double(result.bytesWritten) / 1e6, result.seconds,
                  result.seconds > 0 ? mb / result.seconds : 0.0);
    std::cerr << line << "truth: " << result.truthFile.string() << '\n';
    return kExitOk;
}

Action setupSynth(CLI::App& app, const Invocation&)
{
    auto args = std::make_shared<SynthArgs>();
    SynthOptions& o = args->options;
    o.threads = 1;
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    app.add_option("OUT_DIR", args->outDir, "the folder to write (new or empty, or --force)")->required()->type_name("");
    app.add_option("--ranks", o.ranks, "ranks (one trace file each)")
        ->check(wholeNumber(1, 100000))->type_name("N")->capture_default_str();
    app.add_option("--steps", o.steps, "training steps per rank, before the warm-down step")
        ->check(wholeNumber(1, 10'000'000))->type_name("S")->capture_default_str();
    app.add_option("--seed", o.seed, "the same options and seed always give the same bytes")
        ->check(wholeNumber(0, kMax))->type_name("X")->capture_default_str();
    app.add_option("--events-per-rank", o.eventsPerRank, "add steps until each rank has K events")
        ->check(wholeNumber(0, kMax / 2))->type_name("K");
    const CLI::Validator byteSize(
        [](std::string& text) -> std::string {
            uint64_t bytes = 0;
            return parseByteSize(text, bytes) ? std::string() : "expects a size like 100M or 2G, got '" + text + "'";
        },
        "");
    app.add_option("--size-per-rank", args->sizePerRank, "add steps until each rank has this much JSON")
        ->check(byteSize)->type_name("SIZE");
    app.add_flag("--gzip", o.gzip, "write .json.gz");
    app.add_option("--gzip-level", o.gzipLevel, "zlib level")
        ->check(wholeNumber(1, 9))->type_name("1-9")->capture_default_str();
    app.add_flag("--ns-timestamps", o.nsTimestamps, "timestamps with a nanosecond fraction, as recent Kineto writes");
    app.add_option("--straggler", o.stragglerRank, "this rank stalls before each collective (-1: none)")
        ->check(wholeNumber(-1, 99999))->type_name("RANK")->capture_default_str();
    app.add_option("--slow-kernel-rank", o.slowKernelRank, "the rank whose first forward GEMM is slow (-1: the last, -2: none)")
        ->check(wholeNumber(-2, 99999))->type_name("RANK")->capture_default_str();
    app.add_option("--device", args->device, "nvidia or amd")
        ->check(oneOf({"nvidia", "amd"}))->type_name("DEV")->capture_default_str();
    app.add_option("--layers", o.layers, "layers of the synthetic model")
        ->check(wholeNumber(1, 1000))->type_name("L")->capture_default_str();
    app.add_flag("--legacy-nccl-names", o.legacyNcclNames, "ncclKernel_* names (what HTA's straggler analysis reads)");
    app.add_option("--clock-skew", args->clockSkewUs,
                   "every rank but 0 writes its timestamps on a clock off by a fixed offset within +-US "
                   "(truth: ranks[].clockOffsetNs)")
        ->check(wholeNumber(0, 1000000000))->type_name("US")->capture_default_str();
    app.add_flag("--idle-cause-stalls", o.idleCauseStalls,
                 "also place a device sync before the optimizer, a stall inside it and a GPU-side delay in "
                 "forward (truth: ranks[].placedGaps, one idle gap of each host cause)");
    app.add_flag("--memory", o.memoryEvents,
                 "[memory] events (profile_memory=True): each computation kernel's launch allocates its output "
                 "(truth: ranks[].memory)");
    app.add_option("--memory-baseline", args->memoryBaseline,
                   "with --memory: bytes allocated before the trace (parameters, optimizer state; default 2G)")
        ->check(byteSize)->type_name("SIZE");
    app.add_option("--memory-leak", args->memoryLeak,
                   "with --memory: each step allocates this much more and never frees it")
        ->check(byteSize)->type_name("SIZE");
    app.add_flag("--no-seq", args->noSeq, "no \"Seq\" on record_param_comms (collectives then match by order)");
    app.add_option("--threads", o.threads, "ranks written in parallel (0 = every core)")
        ->check(wholeNumber(0, 1024))->type_name("T")->capture_default_str();
    app.add_flag("--force", args->force, "write into a non-empty folder: its trace and truth files are removed first");
    return [args] {
        args->options.collectiveSeq = !args->noSeq;
        args->options.clockSkewNs = args->clockSkewUs * 1000;
        return runSynth(*args);
    };
}

const CommandRegistrar kRegistrar{{
    "synth",
    "Write a synthetic run (one Kineto trace per rank) and truth/truth.json with its known answers",
    "Writes OUT_DIR/rank<r>.pt.trace.json[.gz] and OUT_DIR/truth/truth.json. Every rank runs S training\n"
    "steps plus one warm-down step (HTA drops GPU work launched in the last ProfilerStep; the truth's\n"
    "\"kept\" scope covers the first S steps). --straggler makes that rank's backward kernels slower and\n"
    "stalls it 150 us before each collective, so its collectives start last; collectives carry process\n"
    "group \"0\", sizes and Seq (--no-seq: none); truth.json lists every instance's arrivals, waits\n"
    "and transfer. --clock-skew US shifts every rank's clock but rank 0's by up to US (clock-skew\n"
    "recovers them). The slow kernel (first forward GEMM, 1.6x) is on the last rank unless\n"
    "told otherwise. --memory writes [memory] events on an 80 GB A100 (--memory-baseline near it makes\n"
    "memory_near_capacity fire, --memory-leak memory_growth; truth.json says which must).\n"
    "Exit codes: 0 ok, 1 usage (or a non-empty OUT_DIR without --force), 2 write failed.",
    &setupSynth,
    0,
}};

} // namespace

} // namespace kscope::cli
