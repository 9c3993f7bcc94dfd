#include "plots/downsample.h"

#include <algorithm>

namespace kscope {

void downsampleSteps(const QVector<double>& keys, const QVector<double>& values, int buckets, QVector<double>& outKeys,
                     QVector<double>& outValues)
{
    const qsizetype n = std::min(keys.size(), values.size());
    if (buckets < 1 || n <= 4 * qsizetype(buckets)) {
        outKeys = keys.mid(0, n);
        outValues = values.mid(0, n);
        return;
    }
    outKeys.clear();
    outValues.clear();
    outKeys.reserve(4 * buckets);
    outValues.reserve(4 * buckets);
    const double first = keys.front(), span = std::max(keys[n - 1] - first, 1e-300);
    qsizetype i = 0;
    while (i < n) {
        const int bucket = std::min(buckets - 1, int((keys[i] - first) / span * buckets));
        qsizetype end = i;
        qsizetype low = i, high = i;
        while (end < n && std::min(buckets - 1, int((keys[end] - first) / span * buckets)) == bucket) {
            if (values[end] < values[low])
                low = end;
            if (values[end] > values[high])
                high = end;
            ++end;
        }
        // In time order, without repeats: first, the extremes, last.
        qsizetype picks[4] = {i, std::min(low, high), std::max(low, high), end - 1};
        qsizetype previous = -1;
        for (qsizetype p : picks) {
            if (p == previous)
                continue;
            outKeys.push_back(keys[p]);
            outValues.push_back(values[p]);
            previous = p;
        }
        i = end;
    }
}

} // namespace kscope
