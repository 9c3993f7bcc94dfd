#include "timeconv.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace kscope {

bool microsToNanos(std::string_view token, int64_t& nanos)
{
    // Exact decimal -> ns: epoch microseconds with a ns fraction do not survive a double.
    size_t i = 0;
    while (i < token.size() && (token[i] == ' ' || token[i] == '\n' || token[i] == '\t' || token[i] == '\r'))
        ++i;
    size_t end = token.size();
    while (end > i && (token[end - 1] == ' ' || token[end - 1] == '\n' || token[end - 1] == '\t' || token[end - 1] == '\r'))
        --end;
    if (i >= end)
        return false;
    bool negative = false;
    if (token[i] == '-') {
        negative = true;
        ++i;
    }
    const size_t intStart = i;
    uint64_t whole = 0;
    while (i < end && token[i] >= '0' && token[i] <= '9') {
        if (whole > (std::numeric_limits<uint64_t>::max() - 9) / 10)
            return false;
        whole = whole * 10 + static_cast<uint64_t>(token[i] - '0');
        ++i;
    }
    if (i == intStart)
        return false;
    uint64_t fraction = 0;
    int fractionDigits = 0;
    bool roundUp = false;
    if (i < end && token[i] == '.') {
        ++i;
        const size_t fracStart = i;
        while (i < end && token[i] >= '0' && token[i] <= '9') {
            if (fractionDigits < 3) {
                fraction = fraction * 10 + static_cast<uint64_t>(token[i] - '0');
                ++fractionDigits;
            } else if (fractionDigits == 3) {
                roundUp = token[i] >= '5';
                ++fractionDigits;
            }
            ++i;
        }
        if (i == fracStart)
            return false;
    }
    if (i < end && (token[i] == 'e' || token[i] == 'E')) {
        // Rare in traces: fall back to double, good to ~0.1 us at epoch magnitudes.
        const std::string copy(token.substr(intStart - (negative ? 1 : 0), end - intStart + (negative ? 1 : 0)));
        char* stop = nullptr;
        const double micros = std::strtod(copy.c_str(), &stop);
        if (stop != copy.c_str() + copy.size() || !std::isfinite(micros) || std::fabs(micros) > 9.0e15)
            return false;
        nanos = static_cast<int64_t>(std::llround(micros * 1000.0));
        return true;
    }
    if (i != end)
        return false;
    while (fractionDigits < 3) {
        fraction *= 10;
        ++fractionDigits;
    }
    if (whole > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() / 1000 - 1))
        return false;
    int64_t value = static_cast<int64_t>(whole * 1000 + fraction + (roundUp ? 1 : 0));
    nanos = negative ? -value : value;
    return true;
}

} // namespace kscope
