#!/usr/bin/env bash
# Runs every contender and regenerates the published figures:
#   Docs/performance-chart.svg, Docs/performance-results.csv and the tables in Docs/Performance.md.
#
#   bash Benchmarks/Scripts/publish.sh                  # everything (about 6 minutes on 2 cores)
#   bash Benchmarks/Scripts/publish.sh --filter '...'   # extra arguments go to every `benchmark` run
#
# Three passes (LAZYPROMISE_BENCHMARK_MODE, see Sources/BenchmarkSupport/Scenario.swift), because measuring
# some metrics disturbs others: reading memory statistics allocates inside the measured region
# (package-benchmark reads /proc). Allocation counts and bytes come from a pass that measures only those, wall
# clock and thread CPU time from a pass that measures only those, and peak memory from a pass of its own.
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
repo_dir="$(cd "$package_dir/.." && pwd)"
results="$package_dir/.results"

# OpenCombine overflows the default stack at 1,000 operators; give every contender the same, larger stack.
ulimit -s 65536

run() {
  local pass="$1"
  shift
  mkdir -p "$results/$pass"
  echo "=== $pass pass"
  swift package --package-path "$package_dir" --allow-writing-to-package-directory benchmark \
    --format influx --path "$results/$pass" --no-progress "$@"
}

rm -rf "$results"
LAZYPROMISE_BENCHMARK_MODE=allocations run allocations --metric mallocCountTotal --metric mallocBytesCount "$@"
LAZYPROMISE_BENCHMARK_MODE=time run time "$@"
LAZYPROMISE_BENCHMARK_MODE=memory run memory "$@"

python3 "$package_dir/Scripts/chart.py" \
  "$results/memory/Current_run.influx.csv" \
  "$results/time/Current_run.influx.csv" \
  "$results/allocations/Current_run.influx.csv" \
  --svg "$repo_dir/Docs/performance-chart.svg" \
  --csv "$repo_dir/Docs/performance-results.csv" \
  --doc "$repo_dir/Docs/Performance.md"
echo "Updated Docs/performance-chart.svg, Docs/performance-results.csv and Docs/Performance.md"
