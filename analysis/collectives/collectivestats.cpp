// Sizes, bandwidth factors and the per-name summary of matched collectives (collectives.h).

#include "analysis/collectives/collectives.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace kscope {

namespace {

std::string lowered(std::string_view text, bool lettersOnly)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (lettersOnly && !std::isalnum(u))
            continue;
        out.push_back(static_cast<char>(std::tolower(u)));
    }
    return out;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// numpy.percentile's default (linear interpolation between closest ranks); values sorted.
double percentile(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return 0.0;
    const double pos = p * double(sorted.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

int64_t bucketOf(int64_t bytes)
{
    if (bytes < 0)
        return -1;
    if (bytes == 0)
        return 0;
    int64_t low = 1;
    while (low <= bytes / 2)
        low *= 2;
    return low;
}

} // namespace

int dtypeBytes(std::string_view dtype)
{
    const std::string d = lowered(dtype, true);
    if (d.starts_with("float8") || d == "char" || d == "byte" || d == "bool" || d == "int8" || d == "uint8" ||
        d == "qint8" || d == "quint8")
        return 1;
    if (d == "half" || d == "bfloat16" || d == "float16" || d == "short" || d == "int16" || d == "uint16")
        return 2;
    if (d == "float" || d == "float32" || d == "int" || d == "int32" || d == "uint32" || d == "qint32" ||
        d == "complexhalf")
        return 4;
    if (d == "double" || d == "float64" || d == "long" || d == "int64" || d == "uint64" || d == "complexfloat")
        return 8;
    if (d == "complexdouble")
        return 16;
    return -1;
}

double busBandwidthFactor(std::string_view collectiveName, int groupSize)
{
    const std::string n = lowered(collectiveName, true);
    if (groupSize <= 0)
        return -1.0;
    const double ranks = groupSize;
    if (contains(n, "allreduce"))
        return 2.0 * (ranks - 1.0) / ranks;
    if (contains(n, "reducescatter") || contains(n, "allgather") || contains(n, "alltoall"))
        return (ranks - 1.0) / ranks;
    if (contains(n, "broadcast") || contains(n, "reduce") || contains(n, "send") || contains(n, "recv"))
        return 1.0;
    return -1.0;
}

double linkBandwidthGBps(std::string_view deviceName)
{
    // Per direction, per GPU: NVLink links x 25 GB/s (x 50 on Blackwell); MI300X 7 x 64 GB/s.
    const std::string d = lowered(deviceName, false);
    if (contains(d, "pcie"))
        return 0.0;  // depends on a bridge the trace does not name
    if (contains(d, "h800") || contains(d, "a800"))
        return 200.0;
    if (contains(d, "h100") || contains(d, "h200") || contains(d, "gh200"))
        return 450.0;
    if (contains(d, "b200") || contains(d, "b100") || contains(d, "gb200"))
        return 900.0;
    if (contains(d, "a100"))
        return 300.0;
    if (contains(d, "v100"))
        return 150.0;
    if (contains(d, "mi300x") || contains(d, "mi325x"))
        return 448.0;
    return 0.0;
}

std::vector<CollectiveSummaryRow> collectiveSummary(const Run& run, const Collectives& result)
{
    (void)run;
    struct Acc {
        std::vector<double> transfer, busbw, skew;
    };
    std::map<std::pair<std::string, int64_t>, Acc> groups;
    for (const CollectiveInstance& in : result.instances) {
        Acc& acc = groups[{in.name, bucketOf(in.bytes)}];
        acc.transfer.push_back(double(in.transferNs));
        acc.skew.push_back(double(in.skewNs));
        if (in.busbwGBps >= 0.0)
            acc.busbw.push_back(in.busbwGBps);
    }
    std::vector<CollectiveSummaryRow> rows;
    for (auto& [key, acc] : groups) {
        std::sort(acc.transfer.begin(), acc.transfer.end());
        std::sort(acc.skew.begin(), acc.skew.end());
        std::sort(acc.busbw.begin(), acc.busbw.end());
        CollectiveSummaryRow row;
        row.name = key.first;
        row.bucketLowBytes = key.second;
        row.count = int64_t(acc.transfer.size());
        row.transferMedianNs = percentile(acc.transfer, 0.5);
        row.transferP95Ns = percentile(acc.transfer, 0.95);
        row.skewMedianNs = percentile(acc.skew, 0.5);
        row.skewP95Ns = percentile(acc.skew, 0.95);
        if (!acc.busbw.empty()) {
            row.busbwMedianGBps = percentile(acc.busbw, 0.5);
            row.busbwP95GBps = percentile(acc.busbw, 0.95);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace kscope
