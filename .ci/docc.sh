#!/usr/bin/env bash
# Builds the DocC symbol reference with the toolchain's docc; fails on any warning.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docc
graphs="$PWD/$scratch/symbolgraph"
swift build --scratch-path "$scratch" --target LazyPromise
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
triple=$(swift -print-target-info | sed -n 's/.*"unversionedTriple": "\(.*\)".*/\1/p' | head -n 1)
rm -rf "$graphs" && mkdir -p "$graphs"
swift symbolgraph-extract -module-name LazyPromise -target "$triple" -I "$bin/Modules" \
  -minimum-access-level public -output-dir "$graphs"
docc convert Sources/LazyPromise/LazyPromise.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name LazyPromise \
  --fallback-bundle-identifier org.lazypromise.LazyPromise \
  --output-dir "$scratch/LazyPromise.doccarchive" \
  --warnings-as-errors
