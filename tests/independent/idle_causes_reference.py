#!/usr/bin/env python3
"""Independent reference for `kinetoscope-cli idle-causes --gaps`: finds every idle gap on every GPU
stream and its cause straight from the raw Kineto JSON (stdlib only, none of the C++ logic, brute
force where the engine sweeps) and diffs the CLI's CSV with it, gap by gap, per (rank, stream).

Usage: idle_causes_reference.py CLI RUN [RUN...]     (RUN: a folder of rank files, or one trace file)
       idle_causes_reference.py CLI --shared DIR     (every run under DIR)
       --synth-stalls anywhere: also a run the CLI writes with `synth --idle-cause-stalls` (gaps of
       synchronization, optimizer_step and gpu_queued besides the default step's causes)
Exit 0 when every run matches, 1 on any difference or CLI failure.

The rules, as the README states them. Runs are loaded with --include-last-step: host events
starting after a rank's last ProfilerStep ends are dropped (with two or more step names in the
run), and GPU events whose launch was dropped with them.
- Gaps: kernels, memcpys and memsets per stream in start order; a gap opens at the latest end so
  far and closes at the next op's start when that is later.
- The launch of the op after a gap: the latest event with its correlation that is not GPU work
  (the runtime call; MTIA's mtia_runtime); none: launch_not_in_trace. Its thread's host events (ProfilerStep#N ignored) split the gap:
  [gap start, launch start) instant by instant to the highest-priority class open there
  (synchronization > data_loading > optimizer_step > cpu_op; none: no_host_activity); the launch
  call's part is launch_overhead; after the call, the GPU's part is launch_overhead when no longer
  than the kernel-wait delay (30 us), stream_wait when a *StreamWaitEvent call ran on the
  launching thread between the previous op's launch and this launch (or a cuda_sync event on the
  stream waits on another during the gap), else gpu_queued. The gap goes to the cause that held
  most of it (ties: that order, with launch_overhead, stream_wait, gpu_queued, no_host_activity,
  launch_not_in_trace after cpu_op).
- cause_op: for a host cause, the innermost event of that class covering at least half of the
  time the class held (else the one covering most); the launch call for launch_overhead and
  gpu_queued; for stream_wait the op on another stream whose end came last before the gap closed.
"""
import bisect, csv, io, os, subprocess, sys, tempfile
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ops_reference import HOST_CATS, STEP_NAME, load_rank, rank_files, shared_runs, to_ns  # noqa: E402

WORK_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "mtia_ccp_events"}
SYNC_NAMES = {"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
              "hipStreamSynchronize", "hipDeviceSynchronize", "hipEventSynchronize", "hipMemcpy",
              "cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize", "cuMemcpyDtoH_v2",
              "aten::item", "aten::_local_scalar_dense"}
CAUSES = ["synchronization", "data_loading", "optimizer_step", "cpu_op", "launch_overhead", "stream_wait",
          "gpu_queued", "no_host_activity", "launch_not_in_trace"]
DELAY_NS = 30000


def stream_of(e):
    s = e["args"].get("stream")
    return s if isinstance(s, int) and not isinstance(s, bool) else None


def host_class(name):
    if name.startswith("ProfilerStep#"):
        return None
    if name in SYNC_NAMES:
        return 0
    if "DataLoader" in name:
        return 1
    if name.startswith("Optimizer."):
        return 2
    return 3


def kept(events, trim):
    """The events the CLI keeps with --include-last-step."""
    if not trim:
        return events
    steps = [e for e in events if e["cat"] in HOST_CATS and STEP_NAME.match(e["name"])]
    if not steps:
        return events
    last_end = max(e["ts"] + e["dur"] for e in steps)
    cpu = [e for e in events if stream_of(e) is None or e["cat"] in HOST_CATS]
    cpu_ids = {id(e) for e in cpu}
    kept_cpu = [e for e in cpu if e["ts"] <= last_end]
    kept_corr = {e["args"].get("correlation", -1) for e in kept_cpu}
    all_corr = {e["args"].get("correlation", -1) for e in cpu}
    out = list(kept_cpu)
    for e in events:
        if id(e) in cpu_ids:
            continue
        c = e["args"].get("correlation", -1)
        if c in kept_corr or (c not in all_corr and e["ts"] <= last_end):
            out.append(e)
    return out


def rank_gaps(events):
    """[(stream, start, end, next, previous)] in the next op's start order."""
    work = sorted((e for e in events if e["cat"] in WORK_CATS and stream_of(e) is not None),
                  key=lambda e: (e["ts"], e["i"]))
    state, gaps = {}, []
    for e in work:
        s, end = stream_of(e), e["ts"] + e["dur"]
        if s not in state:
            state[s] = [end, e]
            continue
        prev_end, prev = state[s]
        if e["ts"] > prev_end:
            gaps.append((s, prev_end, e["ts"], e, prev))
        if end > prev_end:
            state[s] = [end, e]
    return gaps


class Thread:
    """One thread's host events in start order, each with its depth and enclosing event
    (interval containment: ending exactly at the next start does not contain it)."""

    def __init__(self, events):
        self.events = sorted(events, key=lambda e: (e["ts"], -e["dur"], e["i"]))
        self.starts = [e["ts"] for e in self.events]
        self.depth, self.parent, stack = {}, {}, []
        for e in self.events:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            self.depth[id(e)] = len(stack)
            self.parent[id(e)] = stack[-1] if stack else None
            stack.append(e)

    def overlapping(self, hs, he):
        """Events with time inside [hs, he): those open at hs (the chain around the last one that
        started before it) and those starting inside."""
        first = bisect.bisect_left(self.starts, hs)
        out = []
        e = self.events[first - 1] if first else None
        while e is not None:
            if e["ts"] + e["dur"] > hs:
                out.append(e)
            e = self.parent[id(e)]
        last = bisect.bisect_left(self.starts, he)
        return out + [e for e in self.events[first:last] if e["ts"] + e["dur"] > hs]

    def starting(self, lo, hi):
        """Events starting in [lo, hi]."""
        return self.events[bisect.bisect_left(self.starts, lo):bisect.bisect_right(self.starts, hi)]


def explain(gap, launches, threads, work, syncs):
    s, gs, ge, nxt, prev = gap
    ns = [0] * len(CAUSES)
    named = [None] * len(CAUSES)
    launch = launches.get(nxt["args"].get("correlation"))
    if launch is None:
        ns[8] = ge - gs
        return 8, ns[8], None
    ls, le = launch["ts"], launch["ts"] + launch["dur"]
    thread = threads.get(launch["thread"]) or Thread([])
    hs, he = gs, min(ls, ge)
    if he > hs:
        around = [e for e in thread.overlapping(hs, he) if host_class(e["name"]) is not None]
        cuts = sorted({hs, he} | {min(max(t, hs), he) for e in around for t in (e["ts"], e["ts"] + e["dur"])})
        # each elementary segment between cuts takes the best class of the events covering it
        best_class = [4] * (len(cuts) - 1)
        for e in around:
            c = host_class(e["name"])
            first = bisect.bisect_left(cuts, max(e["ts"], hs))
            last = bisect.bisect_left(cuts, min(e["ts"] + e["dur"], he))
            for k in range(first, last):
                best_class[k] = min(best_class[k], c)
        class_ns = [0] * 4
        for k, c in enumerate(best_class):
            if c < 4:
                class_ns[c] += cuts[k + 1] - cuts[k]
            else:
                ns[7] += cuts[k + 1] - cuts[k]
        for c in range(4):
            if not class_ns[c]:
                continue
            ns[c] += class_ns[c]
            mine = [(min(he, e["ts"] + e["dur"]) - max(hs, e["ts"]), e) for e in around if host_class(e["name"]) == c]
            half = [(thread.depth[id(e)], ov, e) for ov, e in mine if 2 * ov >= class_ns[c]]
            if half:  # the deepest; of two as deep, the one covering more
                named[c] = max(half, key=lambda x: (x[0], x[1]))[2]["name"]
            else:
                named[c] = max(mine, key=lambda x: x[0])[1]["name"]
    call = min(ge, le) - max(gs, ls)
    if call > 0:
        ns[4] += call
        named[4] = launch["name"]
    qs = max(gs, le)
    if qs < ge:
        if ge - qs <= DELAY_NS:
            ns[4] += ge - qs
            named[4] = launch["name"]
        else:
            prev_launch = launches.get(prev["args"].get("correlation"))
            since = min(gs, prev_launch["ts"]) if prev_launch else gs
            waited = any(e["cat"] in ("cuda_runtime", "Runtime") and "StreamWaitEvent" in e["name"]
                         for e in thread.starting(since, ls))
            waited = waited or any(stream_of(y) == s and y["args"].get("wait_on_stream", -1) not in (-1, s)
                                   and y["ts"] < ge and y["ts"] + y["dur"] >= gs for y in syncs)
            if waited:
                ns[5] += ge - qs
                lo = bisect.bisect_left(work.starts, gs - work.longest)
                hi = bisect.bisect_right(work.starts, ge)
                ends = [(ge - (w["ts"] + w["dur"]), -w["ts"], w) for w in work.events[lo:hi]
                        if stream_of(w) != s and gs < w["ts"] + w["dur"] <= ge]
                named[5] = min(ends, key=lambda x: (x[0], x[1]))[2]["name"] if ends else None
            else:
                ns[6] += ge - qs
                named[6] = launch["name"]
    best = max(range(len(CAUSES)), key=lambda c: (ns[c], -c))
    return best, ns[best], named[best]


class Work:
    """GPU work in start order, for the ops ending inside a gap."""

    def __init__(self, events):
        self.events = sorted(events, key=lambda e: (e["ts"], e["i"]))
        self.starts = [e["ts"] for e in self.events]
        self.longest = max((e["dur"] for e in self.events), default=0)


def reference(events):
    """{stream: [(duration, cause, cause_ns, cause_op, next name)]} of one rank."""
    launches = {}  # the host side of a correlation: the latest event with it that is not GPU work
    for e in sorted(events, key=lambda e: (e["ts"], e["i"])):
        corr = e["args"].get("correlation", -1)
        gpu = (stream_of(e) is not None and isinstance(corr, int) and corr >= 0) or e["name"] in ("Event Sync", "Context Sync")
        if not gpu and isinstance(e["args"].get("correlation"), int) and e["args"]["correlation"] != -1:
            launches[e["args"]["correlation"]] = e
    by_thread = {}
    for e in events:
        if e["cat"] in HOST_CATS:
            by_thread.setdefault(e["thread"], []).append(e)
    threads = {key: Thread(evs) for key, evs in by_thread.items()}
    work = Work(e for e in events if e["cat"] in WORK_CATS and stream_of(e) is not None)
    syncs = [e for e in events if e["cat"] == "cuda_sync"]
    out = {}
    for gap in rank_gaps(events):
        cause, cause_ns, op = explain(gap, launches, threads, work, syncs)
        out.setdefault(gap[0], []).append((gap[2] - gap[1], CAUSES[cause], cause_ns, op, gap[3]["name"]))
    return out


def cli_gaps(cli, run):
    cmd = [cli, "idle-causes", run, "--gaps", "--format", "csv", "--include-last-step"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, "%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr.strip())
    got = {}
    for r in csv.DictReader(io.StringIO(p.stdout)):
        got.setdefault((int(r["rank"]), int(r["stream"])), []).append(
            (to_ns(Decimal(r["duration (us)"])), r["cause"], to_ns(Decimal(r["cause_time (us)"])),
             r["cause_op"] or None, r["next"]))
    return got, None


def check_run(cli, run, max_diffs=6):
    files = [(path,) + loaded for path in rank_files(run) for loaded in [load_rank(path)] if loaded]
    if len(files) > 1 and len({rank for _, rank, _ in files}) < len(files):
        print("SKIP %s: ranks not told apart by number" % run)
        return None
    trim = len({e["name"] for _, _, evs in files for e in evs
                if e["cat"] in HOST_CATS and STEP_NAME.match(e["name"])}) >= 2
    got, error = cli_gaps(cli, run)
    if error:
        print("FAIL %s: %s" % (run, error))
        return False
    want = {}
    for _, rank, events in files:
        if rank is None:
            rank = min((r for r, _ in got), default=0)
        for stream, gaps in reference(kept(events, trim)).items():
            want[(rank, stream)] = gaps
    diffs, total = [], 0
    for key in sorted(set(got) | set(want)):
        g, w = got.get(key, []), want.get(key, [])
        total += len(w)
        if len(g) != len(w):
            diffs.append("  rank %d stream %d: %d gaps in the CLI, %d in the reference" % (key + (len(g), len(w))))
            continue
        for n, (a, b) in enumerate(zip(g, w)):
            if a != b:
                diffs.append("  rank %d stream %d gap %d: cli %s ref %s" % (key + (n, a, b)))
    if diffs:
        print("MISMATCH %s: %d differences over %d gaps" % (run, len(diffs), total))
        print("\n".join(diffs[:max_diffs]) + ("\n  ..." if len(diffs) > max_diffs else ""))
        return False
    causes = {}
    for gaps in want.values():
        for gap in gaps:
            causes[gap[1]] = causes.get(gap[1], 0) + 1
    print("OK %s: %d gaps over %d streams %s" % (run, total, len(want), dict(sorted(causes.items()))))
    return True


def main(argv):
    cli, rest = (argv[1] if len(argv) > 1 else None), [a for a in argv[2:] if a != "--synth-stalls"]
    if cli is None or (not rest and "--synth-stalls" not in argv) or rest == ["--shared"]:
        sys.exit(__doc__)
    runs = shared_runs(rest[1]) + rest[2:] if rest and rest[0] == "--shared" else rest
    scratch = tempfile.TemporaryDirectory(prefix="idle-causes-synth-") if "--synth-stalls" in argv else None
    if scratch:
        run = os.path.join(scratch.name, "stalls")
        subprocess.run([cli, "synth", run, "--ranks", "3", "--steps", "3", "--seed", "9", "--ns-timestamps",
                        "--straggler", "1", "--idle-cause-stalls"], check=True, stdout=subprocess.DEVNULL)
        runs.append(run)
    results = [check_run(cli, run) for run in runs]
    print("%d of %d runs match, %d skipped" % (results.count(True), len(results), results.count(None)))
    return 1 if False in results or not runs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
