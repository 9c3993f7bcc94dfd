// Top-level trace metadata (everything beside traceEvents) into TraceMetadata.

#include "rankbuilder.h"

#include <simdjson.h>

#include <map>

namespace kscope {

namespace {

std::string stringOrNumber(simdjson::dom::element e)
{
    std::string_view s;
    if (!e.get_string().get(s))
        return std::string(s);
    int64_t i;
    if (!e.get_int64().get(i))
        return std::to_string(i);
    double d;
    if (!e.get_double().get(d))
        return std::to_string(d);
    return simdjson::minify(e);
}

int64_t intOr(simdjson::dom::element e, int64_t fallback)
{
    int64_t i;
    if (!e.get_int64().get(i))
        return i;
    double d;
    if (!e.get_double().get(d))
        return static_cast<int64_t>(d);
    std::string_view s;
    if (!e.get_string().get(s)) {
        try {
            return std::stoll(std::string(s));
        } catch (...) {
        }
    }
    return fallback;
}

} // namespace

void applyMetadata(RankBuilder& builder, const std::map<std::string, std::string>& json, int& rankFromContent)
{
    TraceMetadata& meta = builder.trace.metadata;
    simdjson::dom::parser parser;
    auto parse = [&](const std::string& text, simdjson::dom::element& out) {
        return !parser.parse(text).get(out);
    };
    simdjson::dom::element e;
    for (const auto& [key, text] : json) {
        if (!parse(text, e))
            continue;
        if (key == "schemaVersion") {
            meta.schemaVersion = static_cast<int>(intOr(e, -1));
        } else if (key == "displayTimeUnit") {
            meta.displayTimeUnit = stringOrNumber(e);
        } else if (key == "baseTimeNanoseconds") {
            meta.baseTimeNanoseconds = intOr(e, -1);
        } else if (key == "trace_id") {
            meta.traceId = stringOrNumber(e);
        } else if (key == "traceName") {
            meta.traceName = stringOrNumber(e);
        } else if (key == "cuda_runtime_version" || key == "cudaRuntimeVersion") {
            meta.cudaRuntimeVersion = stringOrNumber(e);
        } else if (key == "cuda_driver_version" || key == "cudaDriverVersion") {
            meta.cudaDriverVersion = stringOrNumber(e);
        } else if (key == "cupti_version") {
            meta.cuptiVersion = stringOrNumber(e);
        } else if (key == "hip_runtime_version") {
            meta.hipRuntimeVersion = stringOrNumber(e);
        } else if (key == "roctracer_version") {
            meta.roctracerVersion = stringOrNumber(e);
        } else if (key == "distributedInfo") {
            DistributedInfo info;
            simdjson::dom::object o;
            if (e.get_object().get(o))
                continue;
            for (auto [k, v] : o) {
                if (k == "backend")
                    info.backend = stringOrNumber(v);
                else if (k == "rank")
                    info.rank = static_cast<int>(intOr(v, -1));
                else if (k == "world_size")
                    info.worldSize = static_cast<int>(intOr(v, -1));
                else if (k == "pg_config")
                    info.pgConfigJson = simdjson::minify(v);
            }
            rankFromContent = info.rank;
            meta.distributed = info;
        } else if (key == "deviceProperties") {
            simdjson::dom::array devices;
            if (e.get_array().get(devices))
                continue;
            for (simdjson::dom::element d : devices) {
                DeviceProperties p;
                simdjson::dom::object o;
                if (d.get_object().get(o))
                    continue;
                for (auto [k, v] : o) {
                    if (k == "id")
                        p.id = static_cast<int>(intOr(v, -1));
                    else if (k == "name")
                        p.name = stringOrNumber(v);
                    else if (k == "totalGlobalMem")
                        p.totalGlobalMem = intOr(v, -1);
                    else if (k == "numSms")
                        p.numSms = static_cast<int>(intOr(v, -1));
                    else if (k == "computeMajor")
                        p.computeMajor = static_cast<int>(intOr(v, -1));
                    else if (k == "computeMinor")
                        p.computeMinor = static_cast<int>(intOr(v, -1));
                }
                meta.devices.push_back(p);
            }
        }
    }
}

} // namespace kscope
