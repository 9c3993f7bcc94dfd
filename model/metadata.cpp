// What a trace says about itself: top-level metadata (everything beside traceEvents) into
// TraceMetadata, and the rank a file declares or its name suggests.

#include "metadata.h"

#include "inflatereader.h"
#include "rankbuilder.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>

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
        return d > -9.2e18 && d < 9.2e18 ? static_cast<int64_t>(d) : fallback;  // NaN/huge: no value
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

int rankFromFileName(const std::string& fileName)
{
    std::string lower(fileName);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (std::string_view word : {"rank", "worker"}) {
        size_t pos = 0;
        while ((pos = lower.find(word, pos)) != std::string::npos) {
            size_t i = pos + word.size();
            while (i < lower.size() && (lower[i] == '-' || lower[i] == '_' || lower[i] == '.'))
                ++i;
            size_t digits = 0;
            int value = 0;
            while (i < lower.size() && std::isdigit(static_cast<unsigned char>(lower[i])) && digits < 7) {
                value = value * 10 + (lower[i] - '0');
                ++i;
                ++digits;
            }
            if (digits > 0)
                return value;
            pos += word.size();
        }
    }
    return -1;
}

int peekDeclaredRank(const std::filesystem::path& file)
{
    InflateReader reader;
    if (!reader.open(file))
        return -1;
    std::string head(256 * 1024, '\0');
    size_t got = 0;
    while (got < head.size()) {
        const size_t n = reader.read(head.data() + got, head.size() - got);
        if (n == 0)
            break;
        got += n;
    }
    head.resize(got);
    const size_t info = head.find("\"distributedInfo\"");
    if (info == std::string::npos)
        return -1;
    const size_t end = head.find('}', info);
    const size_t key = head.find("\"rank\"", info);
    if (key == std::string::npos || (end != std::string::npos && key > end))
        return -1;
    size_t i = key + 6;
    while (i < head.size() && (head[i] == ' ' || head[i] == ':' || head[i] == '\n' || head[i] == '\t' || head[i] == '\r'))
        ++i;
    int rank = 0, digits = 0;
    while (i < head.size() && std::isdigit(static_cast<unsigned char>(head[i])) && digits < 7) {
        rank = rank * 10 + (head[i++] - '0');
        ++digits;
    }
    return digits ? rank : -1;
}

int htaRankFromContent(const std::filesystem::path& file)
{
    InflateReader reader;
    if (!reader.open(file))
        return -1;
    // A match cannot span lines (HTA searches each line), so searching the stream for `"rank":`,
    // whitespace other than a newline, then digits finds the first matching line's first match.
    constexpr std::string_view key = "\"rank\":";
    constexpr size_t kChunk = 1 << 20;
    constexpr size_t kKeep = 4096;  // a match cut at a chunk's end is finished in the next one
    std::string buffer;
    size_t from = 0;  // where to search next
    bool end = false;
    auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    while (!end) {
        const size_t old = buffer.size();
        buffer.resize(old + kChunk);
        const size_t n = reader.read(buffer.data() + old, kChunk);
        buffer.resize(old + n);
        end = n == 0;
        for (size_t at; (at = buffer.find(key, from)) != std::string::npos;) {
            size_t i = at + key.size();
            while (i < buffer.size() && isSpace(buffer[i]))
                ++i;
            size_t digitsEnd = i;
            while (digitsEnd < buffer.size() && std::isdigit(static_cast<unsigned char>(buffer[digitsEnd])))
                ++digitsEnd;
            if (digitsEnd == buffer.size() && !end) {
                from = at;  // cut at the chunk's end: read on
                break;
            }
            from = at + 1;
            if (i == at + key.size() || digitsEnd == i)
                continue;
            int64_t rank = 0;
            for (size_t d = i; d < digitsEnd && rank <= INT32_MAX; ++d)
                rank = rank * 10 + (buffer[d] - '0');
            return static_cast<int>(std::min<int64_t>(rank, INT32_MAX));
        }
        if (from >= buffer.size() || buffer.find(key, from) == std::string::npos) {
            // Keep only a tail that may hold the start of a key.
            const size_t keepFrom = buffer.size() > kKeep ? buffer.size() - kKeep : 0;
            const size_t cut = std::max(keepFrom, std::min(from, buffer.size()));
            buffer.erase(0, cut);
            from = 0;
        } else if (from > 0) {
            buffer.erase(0, from);
            from = 0;
        }
    }
    return -1;
}

} // namespace kscope
