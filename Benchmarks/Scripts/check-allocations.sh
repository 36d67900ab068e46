#!/usr/bin/env bash
# Checks LazyPromise's allocation counts against the ceilings committed for this toolchain.
#
#   bash Benchmarks/Scripts/check-allocations.sh            # what CI runs
#   bash Benchmarks/Scripts/check-allocations.sh --update   # rewrite the ceilings after an intended change
#
# Allocation counts are deterministic, so this runs only the LazyPromise benchmark target, only the
# `mallocCountTotal` metric and only a few iterations (LAZYPROMISE_BENCHMARK_MODE=allocations). The ceilings are
# package-benchmark p90 threshold files in Benchmarks/Thresholds/<swift major.minor>/; any benchmark that
# allocates more than its ceiling fails the check. Wall-clock figures are not checked: they are for people.
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
swift_version="$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)"
thresholds="$package_dir/Thresholds/$swift_version"
targets="LazyPromiseBenchmarks"

export LAZYPROMISE_BENCHMARK_MODE=allocations
# The stack limit is left as it is: LazyPromise's loop of 10,000 iterations must run in the default stack, so a
# change that breaks stack safety fails here too (as a crash).

if [[ "${1:-}" == "--update" ]]; then
  mkdir -p "$thresholds"
  rm -f "$thresholds"/*.p90.json
  swift package --package-path "$package_dir" --allow-writing-to-package-directory \
    benchmark thresholds update --target "$targets" --path "$thresholds" --no-progress
  echo "Wrote $(ls "$thresholds" | wc -l) ceilings to $thresholds; review and commit them."
  exit 0
fi

if [[ ! -d "$thresholds" ]]; then
  echo "error: no allocation ceilings for Swift $swift_version (expected $thresholds)." >&2
  echo "       Create them with: bash Benchmarks/Scripts/check-allocations.sh --update" >&2
  exit 1
fi

# Every benchmark of the gated target must have a ceiling: package-benchmark silently skips one without.
listed="$(swift package --package-path "$package_dir" benchmark list --target "$targets" 2>/dev/null \
  | grep -E '^[A-Za-z]+\.[A-Za-z]+\.[0-9]+$' | sort)"
if [[ -z "$listed" ]]; then
  echo "error: could not list the benchmarks of $targets." >&2
  exit 1
fi
missing=0
while read -r name; do
  if [[ ! -f "$thresholds/$targets.$name.p90.json" ]]; then
    echo "error: no allocation ceiling for $targets:$name (run check-allocations.sh --update)" >&2
    missing=1
  fi
done <<< "$listed"
[[ $missing -eq 0 ]] || exit 1

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
swift package --package-path "$package_dir" benchmark thresholds check \
  --target "$targets" --path "$thresholds" --no-progress 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# The plugin exits 1 for a regression, an improvement, a crash and a build failure alike: read its verdict.
if [[ $status -eq 0 ]]; then
  echo "Allocation counts match the ceilings for Swift $swift_version."
elif grep -q "WORSE than the defined thresholds" "$log"; then
  echo "error: allocation counts exceed the ceilings for Swift $swift_version (see above)." >&2
  exit 1
elif grep -q "BETTER than the defined thresholds" "$log"; then
  echo "Allocation counts went DOWN (see above). Lower the ceilings so that they keep guarding the gain:"
  echo "  bash Benchmarks/Scripts/check-allocations.sh --update"
else
  echo "error: the allocation benchmarks did not run to completion (exit status $status, see above)." >&2
  exit 1
fi
