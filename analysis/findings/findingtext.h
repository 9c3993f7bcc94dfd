#pragma once

// What the rules' sentences are written with: numbers as a reader reads them, and the median
// the rules compare with (internal to analysis/findings/).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kscope::finding_rules {

inline double us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

inline std::string fixed(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// "1.23 ms" / "456 us": durations as a user reads them in a sentence.
inline std::string duration(double micros)
{
    return micros >= 1000.0 ? fixed(micros / 1000.0, 2) + " ms" : fixed(micros, 1) + " us";
}

// "1.50 GiB" / "12.0 MiB": sizes as a user reads them.
inline std::string bytesText(double bytes)
{
    const double gib = 1024.0 * 1024.0 * 1024.0;
    return bytes >= gib ? fixed(bytes / gib, 2) + " GiB" : fixed(bytes / (1024.0 * 1024.0), 1) + " MiB";
}

inline double median(std::vector<double> values)
{
    if (values.empty())
        return std::nan("");
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    const double high = values[middle];
    if (values.size() % 2 == 1)
        return high;
    return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle)) + high) / 2.0;
}

} // namespace kscope::finding_rules
