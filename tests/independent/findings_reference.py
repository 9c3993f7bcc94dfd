#!/usr/bin/env python3
"""Independent reference for two rules of `kinetoscope-cli findings` that read cross-kernel
answers: recomputes them straight from the raw Kineto JSON (stdlib only, none of the C++ logic)
and compares them with `findings --format json --include-last-step`.

Usage: findings_reference.py CLI [--synth] RUN [RUN...]     (RUN: a folder of rank files)
       --synth: also two runs the CLI writes (`synth`, 8 ranks), one with a straggler (rank 5)
       and one without
Exit 0 when every run matches, 1 on any difference or CLI failure.

- exposed_communication: per rank, GPU work is kernels, memcpys and memsets (whose launch was not
  trimmed away) and the GPU side of syncs (cuda_sync, which the span counts, as HTA's does);
  communication is kernels with "nccl" in the name, computation every other kernel.
  The span runs from the first GPU op's start to the last one's end. Communication share =
  |U(comm)| / span, overlap = |U(comm) n U(comp)| / |U(comm)|, exposed = |U(comm)| - the overlap.
  It fires when the share is >= 10% and the overlap < 50%; the finding covers the ranks it fires
  on and carries the numbers of the rank with the most exposed time.
- collective_straggler: on each rank the NCCL kernels in start order; the k-th of every rank is one
  collective (checked: same name on every rank, and all of them running at one instant). The last
  to arrive is the latest start; the delay it caused the start minus the second-latest start. The
  straggler is the rank last most often (ties: the larger delay). The reference checks the CLI's
  counts and delay whenever it names one, and that it names the rank the reference finds.
"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ops_reference import keep_host, load_rank, rank_files  # noqa: E402

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset", "cuda_sync"}
KERNEL_CATS = {"kernel", "Kernel"}


def union(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def length(merged):
    return sum(end - start for start, end in merged)


def intersection(a, b):
    total, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        total += max(0, hi - lo)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def gpu_ops(events):
    """GPU work the CLI keeps with --include-last-step: ops whose launch was trimmed are dropped."""
    host = keep_host(events, True, True)
    kept = {e["args"].get("correlation") for e in host}
    launched = {e["args"].get("correlation") for e in events if e["cat"] not in GPU_CATS}
    return [e for e in events if e["cat"] in GPU_CATS
            and (e["args"].get("correlation") not in launched or e["args"].get("correlation") in kept)]


def exposed(ops):
    if not ops:
        return None
    span = max(e["ts"] + e["dur"] for e in ops) - min(e["ts"] for e in ops)
    comm = union([(e["ts"], e["ts"] + e["dur"]) for e in ops if e["cat"] in KERNEL_CATS and "nccl" in e["name"].lower()])
    comp = union([(e["ts"], e["ts"] + e["dur"]) for e in ops if e["cat"] in KERNEL_CATS and "nccl" not in e["name"].lower()])
    comm_ns = length(comm)
    if comm_ns == 0 or span <= 0:
        return None
    both = intersection(comm, comp)
    return {"share": 100.0 * comm_ns / span, "overlap": 100.0 * both / comm_ns, "exposed_us": (comm_ns - both) / 1000.0}


def straggler(ranks):
    """(rank, last count, instances, delay us) or None."""
    lists = {r: sorted((e for e in ops if e["cat"] in KERNEL_CATS and "nccl" in e["name"].lower()), key=lambda e: e["ts"])
             for r, ops in ranks.items()}
    lists = {r: l for r, l in lists.items() if l}
    if len(lists) < 2:
        return None
    count = min(len(l) for l in lists.values())
    last, delay = {}, {}
    for k in range(count):
        kernels = {r: l[k] for r, l in lists.items()}
        names = {e["name"] for e in kernels.values()}
        if len(names) != 1:
            raise ValueError(f"collective {k}: different kernels across ranks: {sorted(names)[:3]}")
        if max(e["ts"] for e in kernels.values()) >= min(e["ts"] + e["dur"] for e in kernels.values()):
            raise ValueError(f"collective {k}: its kernels never run at one instant on every rank")
        starts = sorted(((e["ts"], r) for r, e in kernels.items()), reverse=True)
        last[starts[0][1]] = last.get(starts[0][1], 0) + 1
        delay[starts[0][1]] = delay.get(starts[0][1], 0) + starts[0][0] - starts[1][0]
    rank = max(last, key=lambda r: (last[r], delay[r]))
    return rank, last[rank], count, delay[rank] / 1000.0


def evidence(finding, name):
    return next(e["value"] for e in finding["evidence"] if e["name"] == name)


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def check_run(cli, run):
    ranks = {}
    for path in rank_files(run):
        loaded = load_rank(path)
        if loaded:
            ranks[loaded[0]] = gpu_ops(loaded[1])
    out = subprocess.run([cli, "findings", "--format", "json", "--include-last-step", run],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL {run}: the CLI exited {out.returncode}: {out.stderr.strip()}")
        return False
    found = {f["rule"]: f for f in json.loads(out.stdout)["findings"]}
    problems = []

    want = {r: x for r, x in ((r, exposed(ops)) for r, ops in ranks.items()) if x and x["share"] >= 10 and x["overlap"] < 50}
    got = found.get("exposed_communication")
    if sorted(want) != (sorted(got["ranks"]) if got else []):
        problems.append(f"exposed_communication on ranks {sorted(want)}, the CLI says {got['ranks'] if got else []}")
    elif want:
        worst = max(want, key=lambda r: want[r]["exposed_us"])
        for name, key in (("communication_share_pctg", "share"), ("comp_comm_overlap_pctg", "overlap"),
                          ("exposed_communication", "exposed_us")):
            if not close(evidence(got, name), want[worst][key]):
                problems.append(f"exposed_communication {name}: {evidence(got, name)}, reference {want[worst][key]} (rank {worst})")

    got = found.get("collective_straggler")
    try:
        ref = straggler(ranks)
    except ValueError as error:  # collectives that order cannot pair: only the CLI's matching can
        if got:
            problems.append(f"collective_straggler names {got['ranks']}; no reference to check it: {error}")
        else:
            print(f"note {run}: no straggler reference ({error}); the CLI names none")
        ref = None
    if got:
        if not ref or got["ranks"] != [ref[0]]:
            problems.append(f"collective_straggler names {got['ranks']}, the reference {ref and ref[0]}")
        else:
            for name, value in (("last_arrivals", ref[1]), ("instances", ref[2]), ("delay_caused", ref[3])):
                if not close(evidence(got, name), value):
                    problems.append(f"collective_straggler {name}: {evidence(got, name)}, reference {value}")
    elif ref and ref[1] / ref[2] >= 0.5 and ref[3] > 0 and len(ranks) > 1:
        print(f"note {run}: rank {ref[0]} is last in {ref[1]} of {ref[2]} ({ref[3]:.1f} us in all); "
              "below the step-share threshold, no finding")
    for p in problems:
        print(f"FAIL {run}: {p}")
    if not problems:
        print(f"ok   {run}: exposed_communication on {sorted(want)}, straggler {got['ranks'] if got else None}")
    return not problems


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 1
    cli, runs = argv[1], [a for a in argv[2:] if a != "--synth"]
    with tempfile.TemporaryDirectory() as scratch:
        if "--synth" in argv:
            for name, extra in (("straggler", ["--straggler", "5"]), ("even", [])):
                folder = os.path.join(scratch, name)
                subprocess.run([cli, "synth", folder, "--ranks", "8", "--steps", "4", "--seed", "7", "--gzip"] + extra,
                               check=True, capture_output=True)
                runs.append(folder)
        results = [check_run(cli, run) for run in runs]
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
