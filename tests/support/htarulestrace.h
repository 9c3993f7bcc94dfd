#pragma once

// Small Kineto-like trace texts for the HTA rule tests (tst_hta_rules_*): one event per line,
// times written as the JSON number tokens given, so a test controls fractions and integers.

#include <cstdint>
#include <string>
#include <vector>

namespace kscope::test::hta {

// One complete ("X") event as Kineto writes it; times are JSON number tokens as written.
inline std::string x(const std::string& cat, const std::string& name, const std::string& ts, const std::string& dur,
              const std::string& args = {}, int pid = 1, int tid = 1)
{
    std::string e = R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": )" + std::to_string(pid)
                    + R"(, "tid": )" + std::to_string(tid) + R"(, "ts": )" + ts + R"(, "dur": )" + dur;
    if (!args.empty())
        e += R"(, "args": {)" + args + "}";
    return e + "}";
}

inline std::string launchEv(const std::string& ts, int64_t correlation, const std::string& name = "cudaLaunchKernel")
{
    return x("cuda_runtime", name, ts, "1", R"("correlation": )" + std::to_string(correlation));
}

inline std::string kernelEv(const std::string& name, int stream, const std::string& ts, const std::string& dur,
                     int64_t correlation, const std::string& cat = "kernel")
{
    return x(cat, name, ts, dur, R"("stream": )" + std::to_string(stream) + R"(, "correlation": )" + std::to_string(correlation),
             0, stream);
}

// A trace file: `head` is written before traceEvents (e.g. a distributedInfo member), one event per line.
inline std::string traceText(const std::vector<std::string>& events, const std::string& head = {}, const std::string& tail = {})
{
    std::string out = "{\n  \"schemaVersion\": 1,\n" + head + "  \"traceEvents\": [";
    for (size_t i = 0; i < events.size(); ++i)
        out += (i ? ",\n  " : "\n  ") + events[i];
    return out + "\n  ]" + tail + "\n}\n";
}

inline std::string rankHead(int rank)
{
    return "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(rank) + ", \"world_size\": 2},\n";
}

} // namespace kscope::test::hta
