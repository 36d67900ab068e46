#!/usr/bin/env bash
# Instructions and allocations per stage of a whole chain, from N = 1 to N = 1,000,000 stages: is the cost flat?
#
#   bash Benchmarks/Scripts/flat-cost.sh                # N = 1, 10, …, 1,000,000 (several minutes on 2 cores)
#   bash Benchmarks/Scripts/flat-cost.sh 1 10 100       # other sizes
#
# Each figure comes from the InstructionCounts driver (Benchmarks/Sources/InstructionCounts) under
# `valgrind --tool=callgrind`, as in check-instructions.sh, but taken differently: not as the slope between two
# lengths (which leaves out what a run costs once) but as one warm repetition of the whole thing, divided by N.
# Process start-up and first-time costs (metadata instantiation, the heap growing) are in both processes and
# cancel; what a run costs once (its handle, its source, the closure that receives the result) stays in, as it does
# for a user. So at N = 1 a figure is a whole one-stage chain.
#
#   build + run    (N stages, 1 run, repeated 2 times) − (the same, 1 time)
#   run only       (N stages, 2 runs of the one chain) − (1 run): a run of a prebuilt chain
#
# Allocations are the calls to malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign that callgrind
# recorded in the same processes (glibc's allocator; callgrind does not replace it).
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
sizes=("$@")
((${#sizes[@]} > 0)) || sizes=(1 10 100 1000 10000 100000 1000000)

# Without address-space randomization the totals are exact; with it they move by some tens of instructions a
# process, which matters at N = 1.
no_aslr=""
if setarch -R true 2> /dev/null; then no_aslr="setarch -R"; fi

# shellcheck source=valgrind-driver.sh
source "$(dirname "$0")/valgrind-driver.sh"
prepare_driver "$package_dir" InstructionCounts

# count SCENARIO STAGES RUNS REPEATS: "instructions allocations" of the whole process; fails if the driver crashed
# (hand-written callbacks overflow the stack past some thousands of stages).
count() {
  local instructions
  if ! SWIFT_DETERMINISTIC_HASHING=1 $no_aslr valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$work/driver" "$@" > "$work/log" 2>&1; then
    return 1
  fi
  instructions=$(sed -nE 's/.*Collected : ([0-9]+).*/\1/p' "$work/log")
  # Callgrind names a function once as "cfn=(id) name" and then as "cfn=(id)"; "calls=COUNT ..." follows each.
  allocations=$(awk '
    /^c?fn=\(/ {
      id = $0; sub(/^c?fn=/, "", id); name = id; sub(/\).*/, ")", id); sub(/^\([0-9]+\) ?/, "", name)
      if (name != "") names[id] = name
      if ($0 ~ /^cfn=/) { callee = names[id]; sub(/'"'"'[0-9]+$/, "", callee) }
      next
    }
    /^calls=/ && callee ~ /^(malloc|calloc|realloc|posix_memalign|aligned_alloc|memalign)$/ {
      split($0, field, /[= ]/); total += field[2]
    }
    END { print total + 0 }' "$work/out")
  echo "$instructions $allocations"
}

# per_stage N "A..." "B...": (B − A) / N for instructions and allocations, formatted.
per_stage() {
  local n=$1 a b
  read -r -a a <<< "$2"
  read -r -a b <<< "$3"
  awk -v n="$n" -v i0="${a[0]}" -v i1="${b[0]}" -v m0="${a[1]}" -v m1="${b[1]}" \
    'BEGIN { printf "%s|%.3f", commas(int((i1 - i0) / n + 0.5)), (m1 - m0) / n }
    function commas(x,  s, r) { s = x ""; r = ""; while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }; return s r }'
}

commas() { sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<< "$1"; }

# row N: LazyPromise's four figures at N stages.
row() {
  local n=$1 base map_build map_run flat loop
  base=$(count promise.map "$n" 1 1)
  map_build=$(per_stage "$n" "$base" "$(count promise.map "$n" 1 2)")
  map_run=$(per_stage "$n" "$base" "$(count promise.map "$n" 2 1)")
  flat=$(per_stage "$n" "$(count promise.flatMap "$n" 1 1)" "$(count promise.flatMap "$n" 1 2)")
  loop=$(per_stage "$n" "$(count promise.loop "$n" 1 1)" "$(count promise.loop "$n" 1 2)")
  printf '| %s | %s | %s | %s | %s |\n' "$(commas "$n")" \
    "${map_build/|/ | }" "${map_run/|/ | }" "${flat/|/ | }" "${loop/|/ | }"
}

# floor_row N: hand-written nested callbacks (the driver's callbacks.map) at N stages, or the crash.
floor_row() {
  local n=$1 base build run
  if base=$(count callbacks.map "$n" 1 1) && build=$(count callbacks.map "$n" 1 2) \
    && run=$(count callbacks.map "$n" 2 1); then
    build=$(per_stage "$n" "$base" "$build")
    run=$(per_stage "$n" "$base" "$run")
    printf '| %s | %s | %s |\n' "$(commas "$n")" "${build/|/ | }" "${run/|/ | }"
  else
    printf '| %s | crashed: %s | | | |\n' "$(commas "$n")" \
      "$(grep -om1 'Stack overflow in thread' "$work/log" || echo 'the driver failed')"
  fi
}

toolchain="$(swift --version 2>&1 | sed -nE 's/.*(Swift version [0-9.]+).*/\1/p' | head -n 1)"
echo "LazyPromise: instructions and allocations per stage (per iteration for the loop) of a whole N-stage chain,"
echo "warm; $toolchain, release, ${no_aslr:+$no_aslr }valgrind --tool=callgrind"
echo
echo '| N | `then { $0 &+ 1 }`, build + run: instructions | allocations | prebuilt, run only: instructions' \
  '| allocations | `then { Promise(value: $0 &+ 1) }`: instructions | allocations | recursive loop: instructions' \
  '| allocations |'
echo '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'
for n in "${sizes[@]}"; do row "$n"; done
echo
echo "The floor: hand-written nested callbacks, the same way (main thread, $(ulimit -s) KiB stack)"
echo
echo '| N | build + run: instructions | allocations | run only: instructions | allocations |'
echo '| ---: | ---: | ---: | ---: | ---: |'
for n in "${sizes[@]}"; do floor_row "$n"; done
