#!/usr/bin/env bash
# Builds the README's first screen — every ```swift block above "## Install" — exactly as written, as the
# main.swift of a new Swift 6 package that depends on this repository (issue 14: what a new user copies first
# must compile). Warnings are errors.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$repo/.build-readme"
rm -rf "$scratch" && mkdir -p "$scratch/Sources/FirstScreen"
cat > "$scratch/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "FirstScreen",
  dependencies: [.package(name: "LazyPromise", path: "$repo")],
  targets: [
    .executableTarget(
      name: "FirstScreen",
      dependencies: [
        .product(name: "LazyPromise", package: "LazyPromise"),
        .product(name: "LazyPromiseFoundation", package: "LazyPromise"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
MANIFEST
awk '/^## Install/ { exit } /^```swift$/ { inside = 1; next } /^```$/ { inside = 0; next } inside { print }' \
  "$repo/README.md" > "$scratch/Sources/FirstScreen/main.swift"
lines=$(wc -l < "$scratch/Sources/FirstScreen/main.swift")
(( lines > 0 )) || { echo "error: found no swift block above '## Install' in README.md" >&2; exit 1; }
echo "README.md: $lines lines of Swift above '## Install'"
if ! swift build --package-path "$scratch" -Xswiftc -warnings-as-errors > "$scratch/build.log" 2>&1; then
  cat "$scratch/build.log"
  echo "error: the README's first screen does not compile (above); it is $scratch/Sources/FirstScreen/main.swift" >&2
  exit 1
fi
echo "the README's first screen compiles as written"
