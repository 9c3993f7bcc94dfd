#pragma once

// Randomness for the synthetic run generator. Our own splitmix64, because std distributions
// differ between standard libraries and a seed must give the same bytes everywhere.
// Counter-based keys (seed, rank, step, instruction) let any event be drawn on its own, so a
// rank's simulation can pause and resume and still draw exactly the same numbers.

#include <cstdint>

namespace kscope {

inline uint64_t splitMix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

inline uint64_t synthKey(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0)
{
    uint64_t h = splitMix64(seed ^ 0x5EEDull);
    h = splitMix64(h ^ a);
    h = splitMix64(h ^ (b + 0x1000193ull));
    h = splitMix64(h ^ (c + 0x2000387ull));
    return splitMix64(h ^ (d + 0x30004F1ull));
}

class SynthRng {
public:
    explicit SynthRng(uint64_t key) : m_state(key) {}

    uint64_t next()
    {
        m_state += 0x9E3779B97F4A7C15ull;
        uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi] (inclusive); lo when hi <= lo.
    int64_t range(int64_t lo, int64_t hi)
    {
        if (hi <= lo)
            return lo;
        return lo + int64_t(next() % uint64_t(hi - lo + 1));
    }
    // Uniform in [0, 1) with 53 random bits: exact in IEEE doubles on every platform.
    double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

private:
    uint64_t m_state;
};

} // namespace kscope
