#!/usr/bin/env bash
# Measures the time goals of Docs/Performance.md as ratios, several times over, close together in time.
#
#   bash Benchmarks/Scripts/goal-ratios.sh [runs]     # default 5 runs
#
# On a shared machine the load drifts during a full run (publish.sh runs one target after another over
# minutes), which moves the ratio between two targets. This runs only the chains of 1,000 stages and the loops of
# 1,000 iterations the goals name, back to back, measuring wall clock and thread CPU time, and prints each run's
# ratios and their median.
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for run in $(seq 1 "$runs"); do
  LAZYPROMISE_BENCHMARK_MODE=time swift package --package-path "$package_dir" \
    --allow-writing-to-directory "$work" benchmark \
    --target CallbackBenchmarks --target LazyPromiseBenchmarks --target NIOFutureBenchmarks \
    --filter '(Callbacks|Minimal|Promise|Future|NIO)\.(map|prebuilt|flatMap|loop|task|pendingPromise|taskLoop)\.1000' \
    --format influx --path "$work/$run" --no-progress > "$work/$run.log" 2>&1
done

python3 - "$work" "$runs" <<'PY'
import csv, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
pairs = [("Promise.map.1000", "Callbacks.map.1000"), ("Promise.prebuilt.1000", "Callbacks.prebuilt.1000"),
         ("Promise.flatMap.1000", "Callbacks.flatMap.1000"), ("Future.map.1000", "NIO.map.1000"),
         ("NIO.map.1000", "Callbacks.map.1000"), ("Promise.loop.1000", "Callbacks.loop.1000"),
         # Issue 21: the joins, against callbacks calling the same opaque step (Callbacks.loop calls it too).
         ("Promise.task.1000", "Callbacks.task.1000"), ("Future.pendingPromise.1000", "Callbacks.task.1000"),
         ("NIO.task.1000", "Callbacks.task.1000"), ("Promise.taskLoop.1000", "Callbacks.loop.1000"),
         # The same join on the smallest generic lazy promise: the floor of the API's shape, and Promise against it.
         ("Minimal.task.1000", "Callbacks.task.1000"), ("Promise.task.1000", "Minimal.task.1000")]
ratios = {(a, b, m): [] for a, b in pairs for m in ("wall", "cpu")}
for run in range(1, runs + 1):
    medians = {}
    with open(f"{work}/{run}/Current_run.influx.csv", newline="") as f:
        for row in csv.reader(f):
            if len(row) < 11 or row[0].startswith("#") or row[0] == "measurement" or row[9] != "50.0":
                continue
            metric = "wall" if "wallclock" in row[6].lower() else "cpu" if "threadcpu" in row[6].lower() else None
            if metric:
                medians[(row[8], metric)] = float(row[10])
    for a, b in pairs:
        for m in ("wall", "cpu"):
            if (a, m) in medians and (b, m) in medians:
                ratios[(a, b, m)].append(medians[(a, m)] / medians[(b, m)])
print(f"{'ratio':<48} {'metric':<6} {'median':>7}   runs")
for (a, b, m), values in ratios.items():
    if values:
        runs_text = " ".join(f"{v:.2f}" for v in values)
        print(f"{a + ' / ' + b:<48} {m:<6} {statistics.median(values):>6.2f}×   {runs_text}")
PY
