// kinetoscope-cli synth: writes a synthetic run with known truth (see model/synthrun.h).

#include "command.h"

#include "model/synth/synthrun.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>

namespace kscope::cli {

namespace {

// A whole number within [lo, hi]; throws invalid_argument (a usage error) otherwise.
int64_t integerFlag(const Arguments& args, const std::string& name, int64_t fallback, int64_t lo, int64_t hi)
{
    const double value = args.number(name, double(fallback));
    if (value != std::floor(value) || value < double(lo) || value > double(hi))
        throw std::invalid_argument("--" + name + " expects a whole number from " + std::to_string(lo) + " to " +
                                    std::to_string(hi));
    return int64_t(value);
}

int runSynth(const Arguments& args)
{
    if (args.positional.size() != 1) {
        std::cerr << "error: synth needs exactly one OUT_DIR\n";
        return kExitUsage;
    }
    SynthOptions options;
    options.ranks = int(integerFlag(args, "ranks", options.ranks, 1, 100000));
    options.steps = int(integerFlag(args, "steps", options.steps, 1, 10'000'000));
    options.seed = uint64_t(integerFlag(args, "seed", int64_t(options.seed), 0, std::numeric_limits<int64_t>::max()));
    options.eventsPerRank = integerFlag(args, "events-per-rank", 0, 0, std::numeric_limits<int64_t>::max() / 2);
    if (auto size = args.value("size-per-rank")) {
        if (!parseByteSize(*size, options.sizePerRank)) {
            std::cerr << "error: --size-per-rank expects a size like 100M or 2G\n";
            return kExitUsage;
        }
    }
    if (options.eventsPerRank > 0 && options.sizePerRank > 0) {
        std::cerr << "error: give --events-per-rank or --size-per-rank, not both\n";
        return kExitUsage;
    }
    options.gzip = args.flag("gzip");
    options.gzipLevel = int(integerFlag(args, "gzip-level", options.gzipLevel, 1, 9));
    options.nsTimestamps = args.flag("ns-timestamps");
    options.legacyNcclNames = args.flag("legacy-nccl-names");
    options.stragglerRank = int(integerFlag(args, "straggler", -1, -1, options.ranks - 1));
    options.slowKernelRank = int(integerFlag(args, "slow-kernel-rank", -1, -2, options.ranks - 1));
    options.layers = int(integerFlag(args, "layers", options.layers, 1, 1000));
    options.threads = unsigned(integerFlag(args, "threads", 1, 0, 1024));
    if (auto device = args.value("device")) {
        if (*device == "nvidia") {
            options.device = SynthOptions::Device::Nvidia;
        } else if (*device == "amd") {
            options.device = SynthOptions::Device::Amd;
        } else {
            std::cerr << "error: --device must be nvidia or amd\n";
            return kExitUsage;
        }
    }

    const SynthResult result = writeSynthRun(args.positional.front(), options);
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

const CommandRegistrar kRegistrar{{
    "synth",
    "Write a synthetic run (one Kineto trace per rank) and truth/truth.json with its known answers",
    "OUT_DIR [--ranks N] [--steps S] [--seed X] [--events-per-rank K | --size-per-rank 100M] [--gzip]\n"
    "       [--gzip-level 1-9] [--ns-timestamps] [--straggler RANK] [--slow-kernel-rank RANK|-2]\n"
    "       [--device nvidia|amd] [--layers L] [--legacy-nccl-names] [--threads T]\n\n"
    "Writes OUT_DIR/rank<r>.pt.trace.json[.gz] and OUT_DIR/truth/truth.json. Every rank runs S training\n"
    "steps plus one warm-down step (HTA drops GPU work launched in the last ProfilerStep; the truth's\n"
    "\"kept\" scope covers the first S steps). --events-per-rank / --size-per-rank add steps until each\n"
    "rank reaches that size. --straggler makes that rank's backward kernels slower so its collectives\n"
    "start last; the slow kernel (first forward GEMM, 1.6x) is on the last rank unless told otherwise.\n"
    "The same options and seed always give the same bytes.",
    &runSynth,
    {"gzip", "ns-timestamps", "legacy-nccl-names"},
    {"ranks"},
}};

} // namespace

} // namespace kscope::cli
