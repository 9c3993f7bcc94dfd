#include "analysis/htanumerics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace kscope::hta {

namespace {

constexpr ptrdiff_t kSmallPartition = 15;  // numpy's SMALL_QUICKSORT

int floorLog2(size_t n)
{
    int bits = 0;
    while (n >>= 1)
        ++bits;
    return bits;
}

// numpy's aheapsort on the sub-array order[0, n): 1-based heap over the index array.
template <typename T>
void heapArgsort(const T* keys, uint32_t* order, ptrdiff_t n)
{
    uint32_t* heap = order - 1;
    auto siftDown = [&](ptrdiff_t start, ptrdiff_t size) {
        const uint32_t moving = heap[start];
        ptrdiff_t i = start;
        for (ptrdiff_t child = start * 2; child <= size;) {
            if (child < size && keys[heap[child]] < keys[heap[child + 1]])
                ++child;
            if (!(keys[moving] < keys[heap[child]]))
                break;
            heap[i] = heap[child];
            i = child;
            child += child;
        }
        heap[i] = moving;
    };
    for (ptrdiff_t l = n >> 1; l > 0; --l)
        siftDown(l, n);
    for (ptrdiff_t size = n; size > 1;) {
        std::swap(heap[size], heap[1]);
        --size;
        siftDown(1, size);
    }
}

template <typename T>
std::vector<uint32_t> introArgsort(std::span<const T> span)
{
    const T* keys = span.data();
    std::vector<uint32_t> order(span.size());
    std::iota(order.begin(), order.end(), 0u);
    if (order.size() < 2)
        return order;

    struct Pending {
        uint32_t* left;
        uint32_t* right;
        int depth;
    };
    std::vector<Pending> stack;
    uint32_t* left = order.data();
    uint32_t* right = order.data() + order.size() - 1;
    int depth = floorLog2(order.size()) * 2;
    auto less = [keys](uint32_t a, uint32_t b) { return keys[a] < keys[b]; };

    for (;;) {
        if (depth < 0) {
            heapArgsort(keys, left, right - left + 1);
        } else {
            while (right - left > kSmallPartition) {
                uint32_t* middle = left + ((right - left) >> 1);
                if (less(*middle, *left))
                    std::swap(*middle, *left);
                if (less(*right, *middle))
                    std::swap(*right, *middle);
                if (less(*middle, *left))
                    std::swap(*middle, *left);
                const T pivot = keys[*middle];
                uint32_t* i = left;
                uint32_t* j = right - 1;
                std::swap(*middle, *j);
                for (;;) {
                    do
                        ++i;
                    while (keys[*i] < pivot);
                    do
                        --j;
                    while (pivot < keys[*j]);
                    if (i >= j)
                        break;
                    std::swap(*i, *j);
                }
                std::swap(*i, *(right - 1));
                // The larger side waits on the stack; the smaller one is sorted next.
                if (i - left < right - i) {
                    stack.push_back({i + 1, right, --depth});
                    right = i - 1;
                } else {
                    stack.push_back({left, i - 1, --depth});
                    left = i + 1;
                }
            }
            for (uint32_t* i = left + 1; i <= right; ++i) {
                const uint32_t moving = *i;
                uint32_t* j = i;
                while (j > left && keys[moving] < keys[*(j - 1)]) {
                    *j = *(j - 1);
                    --j;
                }
                *j = moving;
            }
        }
        if (stack.empty())
            break;
        left = stack.back().left;
        right = stack.back().right;
        depth = stack.back().depth;
        stack.pop_back();
    }
    return order;
}

} // namespace

std::vector<uint32_t> quicksortArgsort(std::span<const int64_t> keys)
{
    return introArgsort(keys);
}

std::vector<uint32_t> quicksortArgsort(std::span<const double> keys)
{
    return introArgsort(keys);
}

std::vector<uint32_t> sortDescendingOrder(std::span<const int64_t> keys)
{
    const size_t n = keys.size();
    std::vector<int64_t> reversed(keys.rbegin(), keys.rend());
    std::vector<uint32_t> order = introArgsort(std::span<const int64_t>(reversed));
    for (uint32_t& index : order)
        index = static_cast<uint32_t>(n - 1 - index);
    std::reverse(order.begin(), order.end());
    return order;
}

double round(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::nearbyint(value * scale) / scale;
}

QuantilePosition quantilePosition(size_t n, double q)
{
    const double fraction = (q * 100.0) / 100.0;
    const double position = static_cast<double>(n - 1) * fraction;
    const double below = std::floor(position);
    QuantilePosition at;
    at.lower = std::min(static_cast<size_t>(below), n - 1);
    at.upper = std::min(at.lower + 1, n - 1);
    at.gamma = position - below;
    return at;
}

double lerp(double a, double b, double gamma)
{
    // numpy's _lerp: from the nearer end, so the result is exact at gamma 0 and 1.
    const double difference = b - a;
    return gamma >= 0.5 ? b - difference * (1.0 - gamma) : a + difference * gamma;
}

double quantileLinear(std::span<const double> sorted, double q)
{
    const QuantilePosition at = quantilePosition(sorted.size(), q);
    return lerp(sorted[at.lower], sorted[at.upper], at.gamma);
}

double mean(std::span<const double> values)
{
    return meanOf(values, [](double v) { return v; });
}

double sampleStd(std::span<const double> values)
{
    return sampleStdOf(values, [](double v) { return v; });
}

} // namespace kscope::hta
