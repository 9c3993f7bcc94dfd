#pragma once

// Hand-written Kineto traces of collectives for the collectives tests: one rank's collectives as
// record_param_comms > cudaLaunchKernel on the CPU and their kernels on stream 20.

#include "model/loader.h"
#include "testsupport.h"

#include <memory>
#include <string>
#include <vector>

namespace kscope::test {

// One collective on one rank, for the hand-written traces.
struct Coll {
    std::string pg = "0";
    std::string pgRanks = "[0, 1]";
    int64_t seq = -1;           // -1: no Seq
    std::string name = "allreduce";
    int64_t nelems = 1024;
    std::string dtype = "Float";
    double startUs = 0;         // kernel start
    double durUs = 10;
    bool kernelArgs = true;     // the kernel carries the args too (Seq stays on the CPU op)
    bool cpuArgs = true;        // record_param_comms with args; false: only a nccl:* annotation
    std::string kernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    int groupSize = -1;         // > 0: written as "Group size"
};

inline std::string collArgs(const Coll& c)
{
    return "\"Collective name\": \"" + c.name + "\", \"In msg nelems\": " + std::to_string(c.nelems) +
           ", \"Out msg nelems\": " + std::to_string(c.nelems) + ", \"dtype\": \"" + c.dtype +
           "\", \"Process Group Name\": \"" + c.pg + "\", \"Process Group Ranks\": \"" + c.pgRanks + "\"" +
           (c.groupSize > 0 ? ", \"Group size\": " + std::to_string(c.groupSize) : std::string());
}

// A Kineto trace of one rank: each collective as record_param_comms > cudaLaunchKernel on the
// CPU (launched 50 us before the kernel starts) and its kernel on stream 20.
inline std::string rankTrace(int rank, const std::vector<Coll>& colls, const std::string& device = {}, int worldSize = -1)
{
    std::string out = "{\"schemaVersion\": 1,";
    if (!device.empty())
        out += "\"deviceProperties\": [{\"id\": 0, \"name\": \"" + device + "\", \"totalGlobalMem\": 85031714816}],";
    out += "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank) +
           (worldSize > 0 ? ", \"world_size\": " + std::to_string(worldSize) : std::string()) + "},\n\"traceEvents\": [\n";
    int64_t correlation = 100;
    bool first = true;
    auto event = [&](const std::string& e) {
        out += (first ? "  " : ",\n  ") + e;
        first = false;
    };
    for (const Coll& c : colls) {
        const double cpuTs = c.startUs - 50.0;
        ++correlation;
        std::string args = collArgs(c);
        if (c.seq >= 0)
            args += ", \"Seq\": " + std::to_string(c.seq);
        if (c.cpuArgs)
            event("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 1, \"tid\": 1, \"ts\": " +
                  std::to_string(cpuTs) + ", \"dur\": 20, \"args\": {" + args + "}}");
        else
            event("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"nccl:" + c.name +
                  "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(cpuTs) + ", \"dur\": 20}");
        event("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": " +
              std::to_string(cpuTs + 5.0) + ", \"dur\": 5, \"args\": {\"correlation\": " + std::to_string(correlation) + "}}");
        event("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + c.kernel + "\", \"pid\": 0, \"tid\": 20, \"ts\": " +
              std::to_string(c.startUs) + ", \"dur\": " + std::to_string(c.durUs) +
              ", \"args\": {\"device\": 0, \"stream\": 20, \"correlation\": " + std::to_string(correlation) +
              (c.kernelArgs ? ", " + collArgs(c) : std::string()) + "}}");
    }
    out += "\n]}\n";
    return out;
}

inline std::shared_ptr<Run> loadRanks(const std::string& name, const std::vector<std::vector<Coll>>& perRank,
                                      const std::string& device = {}, const std::vector<int>& rankNumbers = {},
                                      int worldSize = -1)
{
    const auto dir = scratchDir("collectives-" + name);
    for (size_t r = 0; r < perRank.size(); ++r) {
        const int rank = rankNumbers.empty() ? int(r) : rankNumbers[r];
        writeFile(dir / ("rank" + std::to_string(rank) + ".json"), rankTrace(rank, perRank[r], device, worldSize));
    }
    return loadRun(dir, LoadOptions{});
}


} // namespace kscope::test
