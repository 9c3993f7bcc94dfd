#pragma once

// How far each rank's clock is off, estimated from the collectives matched across ranks
// (collectives.h). Every rank's trace has its own clock; collective waits, arrival order and a
// cross-rank critical path read differences of microseconds between clocks that may be off by
// more. The estimate rests on one fact: a collective's kernels end together on every rank, since
// the last rank to arrive releases them all, so within one instance the ranks' end times differ
// by their clocks' offsets plus the last chunk's jitter (a few us).
//
// - Offsets are relative to a reference rank (the lowest rank number that ran a collective, 0 by
//   definition). A rank that shares instances with the reference: its offset is the median over
//   those instances of its end minus the reference's end. Any other rank is chained through
//   ranks already placed: in each instance it shares with them it is compared with the lowest
//   numbered of them, and its offset is that of the partner it met most often (`viaRank`) plus
//   the median of their end differences. Ranks that share no instance with a placed rank
//   (another, disjoint set of process groups) have no offset (`estimated` false).
// - The spread is the median absolute deviation of those differences around their median: how
//   far one instance's reading typically strays. With under kMinInstances instances the offset
//   is given but flagged as not reliable.
// - Instances with at least two ranks count, complete or partial; the same rule per process
//   group (its own reference, its lowest member), and for the whole run over every group.
// - The median collective wait (over every rank's part of every complete instance) is given
//   beside: an offset larger than it means waits and arrival order read across ranks may be
//   the clocks, not the ranks (a note says so; offsets under kClockSkewNoiseNs never count).

#include <cstdint>
#include <string>
#include <vector>

namespace kscope {

struct Collectives;
struct Run;

inline constexpr int64_t kClockSkewMinInstances = 3;
// Below this an offset is within the method's own noise (the jitter of the last chunk's end, and
// whole-microsecond timestamps): never reported as exceeding the waits.
inline constexpr int64_t kClockSkewNoiseNs = 5'000;

struct RankClockOffset {
    int rank = -1;
    uint32_t rankIndex = 0;   // its RankTrace in Run::ranks
    bool estimated = false;   // false: no instance links it to the reference
    bool reliable = false;    // estimated from at least kClockSkewMinInstances instances
    int64_t offsetNs = 0;     // its clock minus the reference's
    int64_t spreadNs = 0;     // median absolute deviation of the per-instance readings
    int64_t instances = 0;    // instances the estimate used
    int viaRank = -1;         // the rank it was compared with (the reference, or a chained rank)
};

struct GroupClockSkew {
    uint32_t group = 0;       // index into Collectives::groups
    int referenceRank = -1;
    int64_t instances = 0;    // instances of two ranks or more
    std::vector<RankClockOffset> ranks;  // its members in the run, by rank
};

struct ClockSkew {
    int referenceRank = -1;              // -1: no instance of two ranks or more
    int64_t instances = 0;               // instances of two ranks or more, every group
    std::vector<RankClockOffset> ranks;  // every loaded rank, by rank (then file)
    std::vector<GroupClockSkew> groups;  // groups with such instances
    int64_t medianWaitNs = 0;            // over every rank's part of every complete instance
    int64_t largestOffsetNs = 0;         // the largest |offset| of a reliable estimate
    std::string error;                   // why there is no estimate
    std::vector<std::string> notes;
};

// True when an offset is larger than the median collective wait and than the method's noise:
// then waits and arrival order read across those clocks may be the clocks, not the ranks.
bool offsetExceedsWaits(const ClockSkew& skew, int64_t offsetNs);

// Whether the estimated offsets change an answer's sign: of the instances of two ranks or more
// whose every rank has an estimate, those whose last arrival (the straggler, whose wait is 0 and
// makes the others wait) is another rank on the reference clock than on the recorded clocks.
struct LastArrivalChanges {
    int64_t instances = 0;
    int64_t changed = 0;
};
// arrivalsAligned: the arrivals are already on the reference clock (CollectiveOptions::alignClocks).
LastArrivalChanges lastArrivalChanges(const Collectives& collectives, const ClockSkew& skew, bool arrivalsAligned);
// The note to put on an answer read across clocks; empty when nothing changes.
std::string lastArrivalNote(const LastArrivalChanges& changes, const ClockSkew& skew, bool aligned);

// What matchCollectives() stores in Collectives::clockSkew (collectives.h) once it has matched.
ClockSkew estimateClockSkew(const Run& run, const Collectives& collectives);

} // namespace kscope
