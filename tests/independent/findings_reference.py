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
  counts and delay whenever it names one, and that it names the rank the reference finds. What the
  straggler runs differently: per kernel name (NCCL kernels left out) its time less the median of
  the other ranks' (0 where a rank lacks the kernel); the largest is `top_kernel_excess`.
- low_tensor_core_use: per rank, kernel time by name; matmul/conv kernels are those whose name
  holds gemm, conv, matmul, cutlass, xmma, fprop, dgrad, wgrad or Cijk_ (any case); Tensor Core
  kernels those holding one of TensorBoard's allowlist (h884, s884, h1688, s1688, hmma, i8816,
  16816, c1688, dgrad_1x1_stride_2x2, first_layer_wgrad_kernel, conv1x1, conv2d_c1_k1,
  direct_group, xmma) or tensorop, gmma, wmma, mfma, "_MI<n>x". It fires when matmul/conv is
  >= 10% of kernel time and Tensor Core kernels < 50% of it; the evidence of the rank with the
  most matmul time without Tensor Cores.
- memory_near_capacity: per rank and CUDA device, the largest "Total Reserved" of its [memory]
  events (else "Total Allocated") against deviceProperties' totalGlobalMem of that device id;
  fires at >= 90%. Checked against the rule and against `memory --format csv`'s peak_reserved and
  device_memory.
- memory_growth: per rank and CUDA device, in each ProfilerStep (its CPU span) the "Total
  Allocated" of its last [memory] event; it fires when at least 3 steps each end higher than the one
  before and the last ends >= 2% of the steps' peak above the first. --synth adds a run written with
  --memory --memory-baseline 70G --memory-leak 1G, where both memory rules must fire.
"""
import csv, gzip, io, json, os, re, subprocess, sys, tempfile

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


MATMUL_WORDS = ("gemm", "conv", "matmul", "cutlass", "xmma", "fprop", "dgrad", "wgrad", "cijk_")
TENSOR_CORE_WORDS = ("h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "c1688", "dgrad_1x1_stride_2x2",
                     "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma", "tensorop",
                     "gmma", "wmma", "mfma")


def tensor_cores(ops):
    """{matmul_pctg, tc_pctg, without_us} of one rank's kernels, or None without matmul kernels."""
    kernels = [e for e in ops if e["cat"] in KERNEL_CATS]
    total = sum(e["dur"] for e in kernels)
    matmul = [e for e in kernels if any(w in e["name"][:200].lower() for w in MATMUL_WORDS)]
    matmul_ns = sum(e["dur"] for e in matmul)
    tc_ns = sum(e["dur"] for e in matmul
                if any(w in e["name"] for w in TENSOR_CORE_WORDS) or re.search(r"_MI\d+x", e["name"]))
    if total <= 0 or matmul_ns <= 0:
        return None
    return {"matmul_pctg": 100.0 * matmul_ns / total, "tc_pctg": 100.0 * tc_ns / matmul_ns,
            "without_us": (matmul_ns - tc_ns) / 1000.0}


def memory_growth(doc):
    """Whether memory_growth must fire on some CUDA device of the file."""
    steps = sorted((e["ts"], e["ts"] + e["dur"]) for e in doc.get("traceEvents", [])
                   if isinstance(e, dict) and e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#"))
    events = {}
    for e in doc.get("traceEvents", []):
        if isinstance(e, dict) and e.get("name") == "[memory]" and e.get("args", {}).get("Device Type") == 1:
            events.setdefault(e["args"].get("Device Id"), []).append((e["ts"], e["args"].get("Total Allocated")))
    for device, series in events.items():
        series.sort(key=lambda p: p[0])
        ends, peak = [], 0
        for start, end in steps:
            inside = [a for ts, a in series if start <= ts <= end and a is not None]
            if inside:
                ends.append(inside[-1])
                peak = max(peak, max(inside))
        rising = len(ends) >= 3 and all(b > a for a, b in zip(ends, ends[1:]))
        if rising and peak > 0 and 100.0 * (ends[-1] - ends[0]) / peak >= 2:
            return True
    return False


def memory_peaks(path, rank):
    """{(rank, "cuda:N"): (peak bytes, device memory or None)} from a file's [memory] events, and
    whether memory_growth must fire on the file."""
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict):
        return {}, False
    capacity = {p.get("id"): p.get("totalGlobalMem") for p in doc.get("deviceProperties", []) if isinstance(p, dict)}
    peaks = {}
    for e in doc.get("traceEvents", []):
        if not isinstance(e, dict) or e.get("name") != "[memory]" or e.get("ph") != "i":
            continue
        a = e.get("args", {})
        if a.get("Device Type") != 1:
            continue
        value = a.get("Total Reserved", a.get("Total Allocated"))
        key = (rank, f"cuda:{a.get('Device Id')}")
        if value is not None:
            peaks[key] = (max(peaks.get(key, (0, None))[0], value), capacity.get(a.get("Device Id")))
    return peaks, memory_growth(doc)


def kernel_excess(ranks, rank):
    """The largest (own time - median of the other ranks' time) over kernel names, us; None if none."""
    def median(values):
        values = sorted(values)
        n = len(values)
        return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
    times = {}
    for r, ops in ranks.items():
        for e in ops:
            if e["cat"] in KERNEL_CATS and "nccl" not in e["name"].lower():
                times.setdefault(e["name"], {}).setdefault(r, 0)
                times[e["name"]][r] += e["dur"]
    best = None
    for name, by_rank in times.items():
        if rank in by_rank:
            excess = by_rank[rank] - median([by_rank.get(r, 0) for r in ranks if r != rank])
            if excess > 0 and (best is None or excess > best):
                best = excess
    return None if best is None else best / 1000.0


def evidence(finding, name):
    return next((e["value"] for e in finding["evidence"] if e["name"] == name), None)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def check_run(cli, run):
    ranks, peaks, growing = {}, {}, []
    for path in rank_files(run):
        loaded = load_rank(path)
        if loaded:
            ranks[loaded[0]] = gpu_ops(loaded[1])
            file_peaks, grows = memory_peaks(path, loaded[0])
            peaks.update(file_peaks)
            if grows:
                growing.append(loaded[0])
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
            for name, value in (("last_arrivals", ref[1]), ("instances", ref[2]), ("delay_caused", ref[3]),
                                ("top_kernel_excess", kernel_excess(ranks, ref[0]))):
                if not close(evidence(got, name), value):
                    problems.append(f"collective_straggler {name}: {evidence(got, name)}, reference {value}")
    elif ref and ref[1] / ref[2] >= 0.5 and ref[3] > 0 and len(ranks) > 1:
        print(f"note {run}: rank {ref[0]} is last in {ref[1]} of {ref[2]} ({ref[3]:.1f} us in all); "
              "below the step-share threshold, no finding")
    want = {r: x for r, x in ((r, tensor_cores(ops)) for r, ops in ranks.items())
            if x and x["matmul_pctg"] >= 10 and x["tc_pctg"] < 50}
    got = found.get("low_tensor_core_use")
    if sorted(want) != (sorted(got["ranks"]) if got else []):
        problems.append(f"low_tensor_core_use on ranks {sorted(want)}, the CLI says {got['ranks'] if got else []}")
    elif want:
        worst = max(want, key=lambda r: want[r]["without_us"])
        for name, key in (("matmul_share_of_kernel_time_pctg", "matmul_pctg"),
                          ("tensor_core_share_of_matmul_pctg", "tc_pctg"), ("matmul_without_tensor_cores", "without_us")):
            if not close(evidence(got, name), want[worst][key]):
                problems.append(f"low_tensor_core_use {name}: {evidence(got, name)}, reference {want[worst][key]} (rank {worst})")

    if peaks:
        table = subprocess.run([cli, "memory", "--format", "csv", "--include-last-step", run], capture_output=True, text=True)
        rows = {(int(r["rank"]), r["device"]): r for r in csv.DictReader(io.StringIO(table.stdout)) if r.get("rank", "").isdigit()}
        for key, (peak, capacity) in peaks.items():
            row = rows.get(key)
            if not row or int(row["peak_reserved"] or row["peak_allocated"]) != peak \
                    or (capacity and int(row["device_memory"]) != capacity):
                problems.append(f"memory {key}: peak {peak} of {capacity}, the CLI's row {row and dict(row)}")
    want = sorted({rank for (rank, _), (peak, capacity) in peaks.items() if capacity and 100.0 * peak / capacity >= 90})
    got = found.get("memory_near_capacity")
    if want != (sorted(got["ranks"]) if got else []):
        problems.append(f"memory_near_capacity on ranks {want}, the CLI says {got['ranks'] if got else []}")
    got = found.get("memory_growth")
    if sorted(growing) != (sorted(got["ranks"]) if got else []):
        problems.append(f"memory_growth on ranks {sorted(growing)}, the CLI says {got['ranks'] if got else []}")
    if run.endswith("memory") and not (want and growing):
        problems.append("the --memory-leak synth run must make both memory rules fire")

    for p in problems:
        print(f"FAIL {run}: {p}")
    if not problems:
        shares = ", ".join(f"{k[0]} {k[1]} {100.0 * p / c:.1f}%" for k, (p, c) in sorted(peaks.items()) if c)
        print(f"ok   {run}: exposed_communication, straggler, Tensor Core use, memory peaks and growth agree"
              + (f" (memory peaks: {shares})" if shares else ""))
    return not problems


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 1
    cli, runs = argv[1], [a for a in argv[2:] if a != "--synth"]
    with tempfile.TemporaryDirectory() as scratch:
        if "--synth" in argv:
            for name, extra in (("straggler", ["--straggler", "5"]), ("even", []),
                                ("memory", ["--memory", "--memory-baseline", "70G", "--memory-leak", "1G"])):
                folder = os.path.join(scratch, name)
                subprocess.run([cli, "synth", folder, "--ranks", "8", "--steps", "4", "--seed", "7", "--gzip"] + extra,
                               check=True, capture_output=True)
                runs.append(folder)
        results = [check_run(cli, run) for run in runs]
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
