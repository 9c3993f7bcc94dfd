#pragma once

// The right answers for a synthetic run, computed from the generator's own schedule with HTA's
// definitions (HTA-RULES.md 1.0, (1), (5), (6)); the schema is documented in synthrun.h.

#include "synthsim.h"
#include "synthwriter.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kscope {

inline constexpr int64_t kConsecutiveKernelDelayNs = 30'000;  // HTA's 30 us kernel-wait threshold

struct SynthIdleTruth {
    int stream = 0;
    int64_t hostWaitNs = 0, kernelWaitNs = 0, otherNs = 0;
    int64_t hostWaitCount = 0, kernelWaitCount = 0, otherCount = 0;
};

struct SynthKernelTruth {
    uint16_t gpuOp = 0;
    int64_t count = 0, totalNs = 0, minNs = 0, maxNs = 0;
};

struct SynthScopeTruth {
    int64_t gpuEventCount = 0;
    int64_t gpuStartNs = 0, gpuEndNs = 0, spanNs = 0, busyNs = 0, idleNs = 0;
    int64_t computeNs = 0, nonComputeNs = 0, communicationNs = 0, memoryNs = 0, commComputeOverlapNs = 0;
    std::vector<SynthIdleTruth> idleByStream;
    std::vector<SynthKernelTruth> kernels;  // sorted by name
};

enum class SynthScope { All, Kept, KeptHtaRounded };

SynthScopeTruth computeScopeTruth(const SynthProgram& program, const std::vector<SynthGpuRecord>& records,
                                  SynthScope scope);

struct SynthRankTruth {
    int rank = 0;
    std::string file;
    int64_t pid = 0;
    int device = 0;
    uint64_t events = 0;
    std::array<uint64_t, size_t(SynthPhase::Count_)> phaseCounts{};
    std::array<uint64_t, size_t(SynthCategory::Count_)> categoryCounts{};
    std::vector<SynthStepSpan> steps;
    int64_t firstTsNs = 0;
    int64_t collectiveLateNs = 0;
    SynthScopeTruth all, kept, keptHtaRounded;
    std::vector<SynthPlacedGap> placedGaps;
    SynthMemoryTruth memory;  // with SynthOptions::memoryEvents
    int64_t deviceMemory = 0;
};

// Writes truth.json; returns an error message, empty on success.
std::string writeSynthTruth(const std::filesystem::path& file, const SynthContext& context,
                            const SynthCollectivePlan& plan, const std::vector<SynthRankTruth>& ranks,
                            uint64_t& bytesWritten);

} // namespace kscope
