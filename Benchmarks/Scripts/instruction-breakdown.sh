#!/usr/bin/env bash
# Where one stage's instructions go, grouped: malloc/free, retain/release, metadata, exclusivity, own work.
#
#   bash Benchmarks/Scripts/instruction-breakdown.sh SCENARIO          # build + run, per stage
#   bash Benchmarks/Scripts/instruction-breakdown.sh SCENARIO --run    # one more run of a prebuilt chain, per stage
#
# SCENARIO is one of the InstructionCounts driver's (callbacks.map, promise.map, promise.loop, future.map, ...; see
# Benchmarks/Sources/InstructionCounts/main.swift). Counts the stripped release driver under callgrind with 1,100 and
# 2,100 stages, as check-instructions.sh does (or, with --run, one and two runs of 1,100 stages), takes each function's
# exclusive count from callgrind_annotate, and prints the difference per stage, grouped by function name. The figures in
# Docs/Performance.md ("Where a stage's instructions go") come from it.
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
scenario="${1:?usage: instruction-breakdown.sh SCENARIO [--run]}"
mode="${2:-}"
# shellcheck source=valgrind-driver.sh
source "$(dirname "$0")/valgrind-driver.sh"
prepare_driver "$package_dir" InstructionCounts

profile() {  # profile NAME STAGES RUNS
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/$1.out" \
    "$work/driver" "$scenario" "$2" "$3" > /dev/null 2>&1
  callgrind_annotate --threshold=100 "$work/$1.out" > "$work/$1.txt"
}
if [[ $mode == "--run" ]]; then
  profile a 1100 1; profile b 1100 2; divisor=1100
else
  profile a 1100 1; profile b 2100 1; divisor=1000
fi

python3 - "$work/a.txt" "$work/b.txt" "$divisor" <<'PY'
import re, sys
def load(path):
    counts = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)", line)
        if m and not m.group(2).startswith("PROGRAM TOTALS"):
            counts[m.group(2)] = counts.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return counts
def group(name):
    if re.search(r"malloc\.c|arena\.c|swift_slowAlloc|swift_allocObject|swift_deallocObject|"
                 r"swift_deallocClassInstance|swift_slowDealloc|alloc_perturb", name):
        return "malloc/free"
    if re.search(r"swift_retain|swift_release|doDecrementSlow|swift_isUniquelyReferenced|swift_bridgeObject", name):
        return "retain/release"
    if re.search(r"Metadata|getCache|memcmp|__swift_instantiate|AssociatedConformance|AtomicWaitQueue|Ma \[|"
                 r"ConformanceCandidate|findConformingSuperclass", name):
        return "metadata"
    if re.search(r"swift_beginAccess|swift_endAccess|AccessSet|SwiftTLSContext|tls_get_addr", name):
        return "exclusivity"
    return "own work"
a, b, divisor = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
totals = {}
for name in set(a) | set(b):
    totals[group(name)] = totals.get(group(name), 0) + b.get(name, 0) - a.get(name, 0)
order = ["malloc/free", "retain/release", "metadata", "exclusivity", "own work"]
for key in order:
    print(f"{key:<16} {totals.get(key, 0) / divisor:8.0f}")
print(f"{'total':<16} {sum(totals.values()) / divisor:8.0f}")
PY
