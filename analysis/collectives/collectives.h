#pragma once

// Collectives matched across ranks: for every GPU collective (NCCL / RCCL kernels), the same
// operation on each participating rank, who arrived last, how long the others waited for it and
// what bandwidth the transfer reached. HTA has no such analysis (its straggler heuristic looks at
// one collective per step, analysis/patterns/steps.h); the default mode keeps exact nanoseconds.
//
// - A collective kernel is a GPU kernel whose name starts with nccl / rccl (or contains
//   ncclKernel / ncclDevKernel), or that carries collective args. Its args (Collective name,
//   In/Out msg nelems, dtype, Group size, Process Group Name / Ranks, Seq) come from the kernel
//   and, for what it lacks, from the CPU op that encloses its launch (record_param_comms); the
//   name falls back to that op's nccl:* annotation, then to the kernel's name. Kernels launched
//   under one CPU-side collective op form one unit (a rank's part of an instance).
// - Matching, per process group (name and ranks list): by (group, Seq) when every unit of the
//   group carries Seq (MatchRule::Seq), else by the position of the unit among the group's
//   units on each rank, in start order (MatchRule::Order). A collective's parts overlap in time
//   and end together (the last arrival releases all): when matching by order proposes an
//   instance whose parts never overlap, the whole group is matched by end time instead
//   (MatchRule::EndTime: parts that overlap and end within 2% or 20 us; a part with no partner
//   is an instance of its own, partial). Ranks of the group that are not in the run, or that
//   have no unit for an instance, make the instance partial: its figures are over the ranks
//   present, and per-rank statistics use complete instances only. The group's members come
//   from its ranks list, else, for the default group (no name), from distributedInfo's
//   world_size; a Group size larger than the members known makes its instances partial too.
//   Ranks the load skipped on purpose (--ranks) are left out of the group instead, with a note.
// - Per instance: arrival = a rank's first kernel start; skew = latest - earliest arrival; wait
//   of a rank = the time its kernels ran before the last rank arrived, min(latest arrival, its
//   end) - its arrival (one definition for --arrivals and --per-rank); transfer = latest end - latest arrival; bytes =
//   max(in, out) elements x dtype size (the buffer nccl-tests sizes by); algbw = bytes /
//   transfer; busbw = algbw x nccl-tests' factor for the collective and group size n.
// - Per rank (and per rank and step): communication time (its kernels' span per instance)
//   split into wait and transfer, times it arrived last, mean lateness (arrival - earliest
//   arrival), and the delay it caused (latest - second latest arrival, where it was last).
// - The straggler: the rank last most often (ties: the larger delay caused), compared with
//   potentialStragglers().
// - The ranks' clock offsets, from the instances' ends (clockskew.h).

#include "analysis/collectives/clockskew.h"
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kscope {

struct CollectiveOptions {
    bool htaCompat = false;     // times as loaded (HTA's rounding in that mode); no other change
    bool compareWithHta = true;  // run potentialStragglers() for the comparison
    // Beyond HTA: each rank's kernel times moved onto the reference rank's clock by the offset
    // clock-skew estimates (clockskew.h) before waits, arrival order and the straggler are read.
    // Ranks without an estimate stay as they are. Collectives::clockSkew keeps the offsets used.
    bool alignClocks = false;
};

enum class MatchRule : uint8_t { Seq, Order, EndTime };
const char* toString(MatchRule rule);  // "seq", "order", "end-time"

// A process group as seen in the run.
struct CollectiveGroup {
    StringId name;        // Process Group Name; null when the trace has none
    StringId ranksText;   // Process Group Ranks as written; null when absent
    std::vector<int> members;      // from the ranks list, else the ranks that ran its collectives
    std::vector<int> ranksNotInRun;  // members without a loaded rank (their instances are partial)
    // Members whose files the load skipped on purpose (LoadOptions::onlyRanks, the CLI's --ranks):
    // not in `members`, so instances are complete among the ranks asked for.
    std::vector<int> ranksLeftOut;
    // Members the group is known to have beyond those listed (a Group size, or the world size,
    // larger than the ranks known by number): its instances are all partial.
    int32_t unnamedMembers = 0;
    MatchRule rule = MatchRule::Seq;
    int64_t orderInstancesRejected = 0;  // instances by order whose parts never overlapped (then EndTime)
    int64_t unpairedParts = 0;           // EndTime: parts no other rank's part overlapped and ended with
    int64_t instances = 0;
    int64_t partialInstances = 0;
    int64_t mismatchedInstances = 0;  // ranks disagree on the collective's name or size
};

// One rank's part of an instance.
struct CollectiveArrival {
    int rank = -1;
    uint32_t rankIndex = 0;        // its RankTrace in Run::ranks (two files may carry one rank number)
    EventIndex kernel = kNoEvent;  // its first kernel, in the rank's event table
    int32_t kernels = 0;           // kernels of the unit
    int32_t step = -1;             // ProfilerStep of the first kernel (-1: none)
    int64_t startNs = 0;           // arrival
    int64_t endNs = 0;             // last end of its kernels
    int64_t waitNs = 0;            // min(latest arrival, endNs) - startNs (0 for the last rank)
    int64_t latenessNs = 0;        // startNs - earliest arrival
};

struct CollectiveInstance {
    uint32_t group = 0;        // index into Collectives::groups
    int64_t seq = -1;          // Seq, the position in the group (Order) or in end order (EndTime)
    MatchRule rule = MatchRule::Seq;
    std::string name;          // collective name (args, nccl:* annotation, or the kernel's name)
    StringId kernelName;       // the first rank's first kernel
    StringId dtype;
    int64_t bytes = -1;        // -1: elements or dtype unknown
    int32_t groupSize = 0;     // n of the bus bandwidth factor
    int32_t step = -1;         // the first arrival's step
    uint32_t firstArrival = 0;  // range in Collectives::arrivals, by rank
    uint32_t arrivalCount = 0;
    int firstRank = -1, lastRank = -1;  // earliest and latest to arrive (lowest rank on ties)
    int64_t earliestNs = 0, latestNs = 0, secondLatestNs = 0, endNs = 0;
    int64_t skewNs = 0, transferNs = 0, waitTotalNs = 0;
    double algbwGBps = -1.0;   // bytes per ns = GB/s; -1 when unknown
    double busbwGBps = -1.0;
    bool aboveLinkBandwidth = false;  // busbw over the device's link bandwidth (where known)
    bool mismatch = false;
    std::vector<int> missingRanks;    // members without a unit for it (in the run or not)
    int32_t unnamedMissing = 0;       // members known only by count (CollectiveGroup::unnamedMembers)
    bool partial() const { return !missingRanks.empty() || unnamedMissing > 0; }
};

struct CollectiveRankStats {
    int rank = -1;
    RankIndex rankIndex;           // two files may claim one rank number: each has its row
    int step = -1;                 // -1: the whole run
    int64_t instances = 0;         // complete instances it took part in
    int64_t commNs = 0;            // sum over them of its kernels' span
    int64_t waitNs = 0;            // the part spent waiting for the last rank
    int64_t transferNs = 0;        // commNs - waitNs
    int64_t lastCount = 0;         // times it arrived last (instances of two ranks or more)
    int64_t latenessNs = 0;        // sum of arrival - earliest arrival
    int64_t delayCausedNs = 0;     // sum, where last, of latest - second latest arrival
    double meanLatenessNs() const { return instances ? double(latenessNs) / double(instances) : 0.0; }
};

struct CollectiveStraggler {
    int rank = -1;                 // -1: no complete instance of two ranks or more
    int64_t lastCount = 0;
    int64_t instances = 0;         // complete instances of two ranks or more
    int64_t delayCausedNs = 0;
    int steps = 0;                 // steps with such instances
    double delayPerStepNs = 0.0;   // delayCausedNs / steps (the whole run when there are none)
    std::vector<int> htaRanks;     // potentialStragglers()' answer
    std::string htaError;          // why it had none
    bool agreesWithHta = false;    // rank is among htaRanks
};

struct Collectives {
    std::vector<CollectiveGroup> groups;
    std::vector<CollectiveInstance> instances;  // by earliest arrival
    std::vector<CollectiveArrival> arrivals;
    std::vector<CollectiveRankStats> perRank;      // by rank
    std::vector<CollectiveRankStats> perRankStep;  // by rank, then step
    CollectiveStraggler straggler;
    ClockSkew clockSkew;           // each rank's clock offset, read from these instances (clockskew.h)
    int64_t kernels = 0;           // collective kernels seen
    bool htaCompat = false;
    std::string error;
    std::vector<std::string> notes;
};

Collectives matchCollectives(const Run& run, const CollectiveOptions& options = {});

// One row of --summary: instances of one collective name and size bucket.
struct CollectiveSummaryRow {
    std::string name;
    int64_t bucketLowBytes = -1;   // [low, 2 low); -1: size unknown
    int64_t count = 0;
    double transferMedianNs = 0, transferP95Ns = 0;
    double busbwMedianGBps = -1, busbwP95GBps = -1;  // -1: no size known
    double skewMedianNs = 0, skewP95Ns = 0;
};
// Complete and partial instances alike; percentiles interpolate linearly (numpy's default).
std::vector<CollectiveSummaryRow> collectiveSummary(const Run& run, const Collectives& result);

// Bytes of one element of a PyTorch dtype as record_param_comms writes it ("Float", "BFloat16",
// "Long", ...); -1 when unknown.
int dtypeBytes(std::string_view dtype);
// nccl-tests' bus bandwidth factor for a collective name and group size; -1 when unknown.
double busBandwidthFactor(std::string_view collectiveName, int groupSize);
// Per-direction NVLink / Infinity Fabric bandwidth in GB/s for a device name; 0 when unknown.
double linkBandwidthGBps(std::string_view deviceName);

} // namespace kscope
