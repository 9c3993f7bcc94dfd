#!/usr/bin/env python3
"""Independent reference for `kinetoscope-cli ops`: recomputes per-operator host/device time
straight from the raw Kineto JSON (stdlib only, none of the C++ logic) and diffs it with the
CLI's CSV, row by row (rank, name).

Usage: ops_reference.py CLI RUN [RUN...]     (RUN: a folder of rank files, or one trace file)
       ops_reference.py CLI --shared DIR     (every run under DIR)
Exit 0 when every run matches, 1 on any difference or CLI failure. Runs whose files claim the
same rank (or, with several files, name none) are reported and skipped: rows can't be matched.

The rule: host events (by category) nest per (pid, tid) by interval: an event's parent is the
innermost earlier-starting host event on its thread that has not ended (end = ts + dur; ending
exactly at the next start does not contain it). A cpu_op carrying args.stream (Inductor/Triton)
is still a host op. A GPU event (kernel, memcpy, memset with stream and correlation) belongs to
the innermost op around its launching runtime call (same correlation). Each run is checked
twice: as loaded by default (HTA's last-step trimming: with two or more ProfilerStep#N names in
the run, host events starting at or after a rank's last step start are dropped) and with
--include-last-step (host events starting after the last step's end are dropped).
"""
import csv, gzip, io, json, os, re, subprocess, sys
from decimal import Decimal, ROUND_HALF_UP

HOST_CATS = {"cpu_op", "user_annotation", "python_function", "cuda_runtime", "cuda_driver",
             "Operator", "Runtime"}
OP_CATS = {"cpu_op", "Operator"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver", "Runtime"}
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}
STEP_NAME = re.compile(r"ProfilerStep#\d")
FIELDS = [("calls", "calls"), ("host_total (us)", "host_total"), ("host_self (us)", "host_self"),
          ("device_total (us)", "device_total"), ("device_self (us)", "device_self"),
          ("gpu_events", "gpu_events")]


def to_ns(value):
    """Kineto microseconds (exact number text, via Decimal) to integer ns; sub-ns digits round half
    away from zero, as the CLI does (checked: dur 1.0005 us -> 1001 ns, 0.0005 -> 1)."""
    return int((Decimal(value) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def load_rank(path):
    """(rank, complete events as dicts with ns times) of one trace file; None if not Kineto."""
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)  # Decimal keeps every digit of a huge ts
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        return None
    info = doc.get("distributedInfo") if isinstance(doc, dict) else None
    rank = info.get("rank") if isinstance(info, dict) else None
    if rank is None:  # else "rank_3", "rank-3", "rank3" in the file name; else unknown (None)
        digits = re.search(r"rank[-_]?(\d+)", os.path.basename(path))
        rank = digits and digits.group(1)
    complete = []
    for i, e in enumerate(events):
        if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e:
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            complete.append({"i": i, "cat": e.get("cat"), "name": str(e.get("name", "")), "args": args,
                             "thread": (e.get("pid"), e.get("tid")), "ts": to_ns(e["ts"]),
                             "dur": to_ns(e.get("dur", 0))})
    return (None if rank is None else int(rank)), complete


def keep_host(events, trim, include_last):
    """Host events the CLI loads: HTA's last-step trimming (see the module comment)."""
    host = [e for e in events if e["cat"] in HOST_CATS]
    steps = [e for e in host if STEP_NAME.match(e["name"])]
    if not trim or not steps:
        return host
    if include_last:
        last_end = max(e["ts"] + e["dur"] for e in steps)
        return [e for e in host if e["ts"] <= last_end]
    last_start = max(e["ts"] for e in steps)
    return [e for e in host if e["ts"] < last_start]


def op_stats(events, host):
    """{name: stats} of one rank from its kept host events and all its GPU events."""
    by_thread = {}
    for e in host:
        by_thread.setdefault(e["thread"], []).append(e)
    order = []  # parents before children
    for evs in by_thread.values():
        evs.sort(key=lambda e: (e["ts"], -e["dur"], e["i"]))  # equal start: the longer one encloses
        stack = []
        for e in evs:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            parent = stack[-1] if stack else None
            # nearest enclosing op, skipping annotations/runtime calls in between
            e["op_parent"] = parent if parent is None or parent["cat"] in OP_CATS else parent["op_parent"]
            e["owner"] = e if e["cat"] in OP_CATS else e["op_parent"]  # innermost op at e
            stack.append(e)
            order.append(e)
    for e in order:
        e.update(dev_self=0, dev_total=0, gpu_events=0, child_host=0)
    launches = {}
    for e in host:
        # by category, not by a missing stream: ROCm's hipLaunchKernel carries args.stream ("0x0")
        if e["cat"] in LAUNCH_CATS and "correlation" in e["args"]:
            launches.setdefault(e["args"]["correlation"], e)
    for g in events:
        if g["cat"] in GPU_CATS and "stream" in g["args"] and "correlation" in g["args"]:
            launch = launches.get(g["args"]["correlation"])
            op = launch["owner"] if launch else None
            if op is not None:
                op["dev_self"] += g["dur"]
                op["gpu_events"] += 1
    stats = {}
    for e in reversed(order):  # children first: fold totals into the parent op
        if e["cat"] not in OP_CATS:
            continue
        e["dev_total"] += e["dev_self"]
        if e["op_parent"] is not None:
            e["op_parent"]["dev_total"] += e["dev_total"]
            e["op_parent"]["gpu_events"] += e["gpu_events"]
            e["op_parent"]["child_host"] += e["dur"]
        s = stats.setdefault(e["name"], dict.fromkeys((k for _, k in FIELDS), 0))
        s["calls"] += 1
        s["host_total"] += e["dur"]
        # floored at 0: a user_annotation that starts inside an op and outlives it (seen in
        # mtia_trace_single_rank) makes later ops its children, summing past the op's own time
        s["host_self"] += max(0, e["dur"] - e["child_host"])
        s["device_self"] += e["dev_self"]
        s["device_total"] += e["dev_total"]
        s["gpu_events"] += e["gpu_events"]
    return stats


def rank_files(run):
    if os.path.isfile(run):
        return [run]
    return sorted(os.path.join(run, f) for f in os.listdir(run)
                  if f.endswith((".json", ".json.gz")) and os.path.isfile(os.path.join(run, f)))


def cli_rows(cli, run, include_last):
    cmd = [cli, "ops", run, "--format", "csv", "--top", "0"] + (["--include-last-step"] if include_last else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as error:
        return None, "%s: %s" % (cmd[0], error)
    if p.returncode != 0:
        return None, "%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr.strip())
    rows = {}
    for r in csv.DictReader(io.StringIO(p.stdout)):
        key = (int(r["rank"]), r["name"])
        if key in rows:
            return None, "%s: two rows for rank %d %s" % (" ".join(cmd), key[0], key[1])
        rows[key] = {k: to_ns(r[c]) if "(us)" in c else int(r[c]) for c, k in FIELDS}
    return rows, None


def check_run(cli, run, max_diffs=8):
    """True when the CLI matches the reference in both loading modes, None when skipped."""
    try:
        files = [(path,) + loaded for path in rank_files(run) for loaded in [load_rank(path)] if loaded]
    except (OSError, ValueError) as error:
        print("FAIL %s: unreadable: %s" % (run, error))
        return False
    # (files that are no Kineto trace, e.g. an execution trace, are left out: the CLI skips them too)
    if len(files) > 1 and any(rank is None for _, rank, _ in files):
        print("SKIP %s: no rank in distributedInfo or the name of %s" % (run, [p for p, r, _ in files if r is None]))
        return None
    ranks = {}
    for path, rank, events in files:
        if rank in ranks:
            print("SKIP %s: rank %d claimed by %s and %s" % (run, rank, ranks[rank][0], path))
            return None
        ranks[rank] = (path, events)
    trim = len({e["name"] for _, evs in ranks.values() for e in evs
                if e["cat"] in HOST_CATS and STEP_NAME.match(e["name"])}) >= 2
    ok = True
    for include_last in (False, True):
        mode = "--include-last-step" if include_last else "default"
        got, error = cli_rows(cli, run, include_last)
        if error:
            print("FAIL %s [%s]: %s" % (run, mode, error))
            ok = False
            continue
        want = {}
        for rank, (_, evs) in ranks.items():
            if rank is None:  # a lone file without a rank: whatever number the CLI gave it
                rank = min((r for r, _ in got), default=0)
            for name, s in op_stats(evs, keep_host(evs, trim, include_last)).items():
                want[(rank, name)] = s
        diffs = []
        for key in sorted(set(got) | set(want), key=lambda k: (k[0], k[1])):
            g, w = got.get(key), want.get(key)
            if g is None or w is None:
                diffs.append("  rank %d %-50s only in %s %s" % (key[0], key[1][:50], "reference" if g is None else "CLI",
                                                             w or g))
                continue
            bad = ["%s cli=%d ref=%d" % (k, g[k], w[k]) for _, k in FIELDS if g[k] != w[k]]
            if bad:
                diffs.append("  rank %d %-50s %s" % (key[0], key[1][:50], "; ".join(bad)))
        if diffs:
            ok = False
            print("MISMATCH %s [%s]: %d of %d rows differ (times in ns)" % (run, mode, len(diffs), len(want)))
            print("\n".join(diffs[:max_diffs]) + ("\n  ..." if len(diffs) > max_diffs else ""))
        else:
            print("OK %s [%s]: %d rows over %d ranks" % (run, mode, len(want), len(ranks)))
    return ok


def shared_runs(root):
    """A run: a folder holding trace files directly (folders of only sub-folders are walked)."""
    runs = []
    for folder, _, files in sorted(os.walk(root)):
        if any(f.endswith((".json", ".json.gz")) for f in files):
            runs.append(folder)
    return runs


def main(argv):
    if len(argv) < 3 or argv[2:] == ["--shared"]:
        sys.exit(__doc__)
    cli, rest = argv[1], argv[2:]
    runs = shared_runs(rest[1]) + rest[2:] if rest[0] == "--shared" else rest
    results = [check_run(cli, run) for run in runs]
    print("%d of %d runs match, %d skipped" % (results.count(True), len(results), results.count(None)))
    return 1 if False in results or not runs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
