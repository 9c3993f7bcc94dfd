#pragma once

// Tables of the matched collectives (collectives.h), as kinetoscope-cli collectives prints them
// and the GUI exports them. Times in microseconds with nanosecond decimals, bandwidth in GB/s
// (10^9 bytes per second).

#include "analysis/resulttable.h"

namespace kscope {

struct Run;
struct Collectives;

// One row per instance, in order of first arrival: process group, seq, rule, collective, bytes,
// ranks, missing ranks, first and last to arrive, skew, total wait, transfer, algbw, busbw.
Table collectivesTable(const Run& run, const Collectives& result);
// --arrivals: one row per instance and rank: arrival, wait, lateness, last or not (the heat map).
Table collectiveArrivalsTable(const Run& run, const Collectives& result);
// --per-rank: one row per rank over the run (perStep: per rank and step): communication time
// split into wait and transfer, times last, mean lateness, delay caused, the straggler answers.
Table collectiveRanksTable(const Collectives& result, bool perStep = false);
// --summary: per collective and size bucket: count, median and p95 of transfer, busbw and skew.
Table collectiveSummaryTable(const Run& run, const Collectives& result);
// clock-skew: one row per rank: its clock's offset from the reference rank, the spread of the
// readings, the instances used, the rank compared with; perGroup: per process group and member.
Table clockSkewTable(const Run& run, const Collectives& collectives, bool perGroup = false);

} // namespace kscope
