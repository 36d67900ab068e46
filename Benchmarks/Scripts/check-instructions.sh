#!/usr/bin/env bash
# Checks LazyPromise's instructions per stage against the ceilings committed for this toolchain.
#
#   bash Benchmarks/Scripts/check-instructions.sh            # what CI runs: fails on a rise of more than 3 %
#   bash Benchmarks/Scripts/check-instructions.sh --update   # rewrite the ceilings after an intended change
#
# Wall-clock on a shared machine moves ±20 %; instruction counts from `valgrind --tool=callgrind` do not (the same
# binary and arguments give the same total to within a few instructions). The driver
# (Benchmarks/Sources/InstructionCounts) builds one chain and runs it; each figure is a difference between two sizes
# (1,100 and 2,100 stages) and, for "run", between one and two runs, so process start-up and one-time costs cancel.
# Both sizes are past the trampoline's stack budget, which a run of a 100-stage chain does not reach: from 100
# stages, the one-time costs of a process's first queued hop (the queue's metadata and first allocation, lazy
# binding) were counted as the longer chain's (Docs/Performance.md).
# Figures are instructions per stage (per iteration for the loop), malloc and free included; the ratio column is
# against hand-written nested callbacks built and run the same way.
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
swift_version="$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)"
ceilings="$package_dir/Thresholds/$swift_version/instructions.txt"
tolerance_percent=3
small=1100
large=2100

# shellcheck source=valgrind-driver.sh
source "$(dirname "$0")/valgrind-driver.sh"
prepare_driver "$package_dir" InstructionCounts

# count SCENARIO STAGES RUNS: the instructions the whole process executed.
count() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/driver" "$@" 2>&1 \
    | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
# per_stage SCENARIO: build + one run, per stage.
per_stage() {
  local a b
  a=$(count "$1" $small 1); b=$(count "$1" $large 1)
  echo $(((b - a) / (large - small)))
}
# per_run_stage SCENARIO: one more run of the same prebuilt chain, per stage.
per_run_stage() {
  local a1 a2 b1 b2
  a1=$(count "$1" $small 1); a2=$(count "$1" $small 2); b1=$(count "$1" $large 1); b2=$(count "$1" $large 2)
  echo $((((b2 - b1) - (a2 - a1)) / (large - small)))
}

declare -A measured
measured[callbacks.map.build+run]=$(per_stage callbacks.map)
measured[callbacks.map.run]=$(per_run_stage callbacks.map)
measured[promise.map.build+run]=$(per_stage promise.map)
measured[promise.map.run]=$(per_run_stage promise.map)
measured[promise.mapOperator.build+run]=$(per_stage promise.mapOperator)
measured[promise.result.build+run]=$(per_stage promise.result)
measured[promise.flatMap.build+run]=$(per_stage promise.flatMap)
measured[promise.error.build+run]=$(per_stage promise.error)
# The join users write: a stage returning a promise made from a task, against callbacks that call the same task.
measured[callbacks.task.build+run]=$(per_stage callbacks.task)
# The same join on the smallest generic lazy promise (InstructionCounts/MinimalPromise.swift): what the API's shape
# costs before any engine (four allocations a stage, as `promise.task`).
measured[minimal.task.build+run]=$(per_stage minimal.task)
measured[minimal.taskLoop.iteration]=$(per_stage minimal.taskLoop)
# swift-nio's join: `flatMap` returning the future of a promise that the task completes (EmbeddedEventLoop).
measured[nio.task.build+run]=$(per_stage nio.task)
measured[promise.task.build+run]=$(per_stage promise.task)
measured[future.pendingPromise.build+run]=$(per_stage future.pendingPromise)
measured[promise.taskLoop.iteration]=$(per_stage promise.taskLoop)
measured[callbacks.loop.iteration]=$(per_stage callbacks.loop)
measured[promise.loop.iteration]=$(per_stage promise.loop)
measured[future.map.build+run]=$(per_stage future.map)
# Per child of `Promise.all` (STAGES is the number of children), built and run once.
measured[promise.all.child]=$(per_stage promise.all)
# Per run of one prebuilt `Promise.race` over 100 children, `Promise.any` over 100 failing children and `zip` of 3
# (STAGES is the number of runs).
measured[promise.race.100]=$(per_stage promise.race.100)
measured[promise.any.100]=$(per_stage promise.any.100)
measured[promise.zip.3]=$(per_stage promise.zip.3)
names="callbacks.map.build+run callbacks.map.run promise.map.build+run promise.map.run promise.mapOperator.build+run
promise.result.build+run
promise.flatMap.build+run promise.error.build+run callbacks.task.build+run minimal.task.build+run nio.task.build+run
promise.task.build+run future.pendingPromise.build+run minimal.taskLoop.iteration promise.taskLoop.iteration callbacks.loop.iteration
promise.loop.iteration future.map.build+run
promise.all.child promise.race.100 promise.any.100 promise.zip.3"

if [[ "${1:-}" == "--update" ]]; then
  mkdir -p "$(dirname "$ceilings")"
  {
    echo "# Instructions per stage (callgrind), Swift $swift_version, written by check-instructions.sh --update."
    for name in $names; do echo "$name ${measured[$name]}"; done
  } > "$ceilings"
  echo "Wrote $ceilings; review and commit it."
  cat "$ceilings"
  exit 0
fi

[[ -f $ceilings ]] || { echo "error: no ceilings at $ceilings (run with --update)" >&2; exit 1; }
floor_build=${measured[callbacks.map.build+run]}
floor_run=${measured[callbacks.map.run]}
printf '%-28s %12s %12s %8s  %s\n' "scenario" "instructions" "ceiling" "×cb" "verdict"
failures=0
for name in $names; do
  value=${measured[$name]}
  ceiling=$(awk -v n="$name" '$1 == n { print $2 }' "$ceilings")
  floor=$floor_build; [[ $name == *.run ]] && floor=$floor_run
  [[ $name == *.loop.iteration ]] && floor=${measured[callbacks.loop.iteration]}
  [[ $name == *.task.build+run || $name == *.pendingPromise.build+run || $name == *.taskLoop.iteration ]] && floor=${measured[callbacks.task.build+run]}
  ratio=$(awk -v a="$value" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')
  if [[ -z $ceiling ]]; then
    verdict="FAIL (no ceiling: run --update)"; failures=$((failures + 1))
  elif (( value * 100 > ceiling * (100 + tolerance_percent) )); then
    verdict="FAIL (more than ${tolerance_percent} % above the ceiling)"; failures=$((failures + 1))
  elif (( value * 100 < ceiling * (100 - tolerance_percent) )); then
    verdict="ok, ${tolerance_percent} %+ below: lower the ceiling with --update"
  else
    verdict="ok"
  fi
  printf '%-28s %12s %12s %8s  %s\n' "$name" "$value" "${ceiling:--}" "$ratio" "$verdict"
done
awk -v a="${measured[promise.task.build+run]}" -v b="${measured[minimal.task.build+run]}" \
  'BEGIN { printf "promise.task / minimal.task: %.2f (the engine over the API shape'"'"'s own cost)\n", a / b }'
awk -v a="${measured[promise.taskLoop.iteration]}" -v b="${measured[minimal.taskLoop.iteration]}" \
  'BEGIN { printf "promise.taskLoop / minimal.taskLoop: %.2f\n", a / b }'
(( failures == 0 )) || { echo "$failures scenario(s) over their instruction ceiling." >&2; exit 1; }
