#!/usr/bin/env bash
# Builds the README's first screen — every ```swift block above "## Install" — exactly as written, as the
# main.swift of a new package that depends on this repository (issue 14: what a new user copies first must
# compile). Warnings are errors. It is built twice: in the Swift 6 language mode, and in the Swift 5 mode with the
# one setting README's "Install" asks of Swift 5 packages (InferSendableFromCaptures, so that function references
# such as `then(pickRock)` are Sendable, as they are in Swift 6; Docs/Troubleshooting.md).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

# build_first_screen NAME LANGUAGE-MODE SWIFT-SETTINGS
build_first_screen() {
  local scratch="$repo/.build-readme/$1"
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
      ],
      swiftSettings: [$3]
    )
  ],
  swiftLanguageModes: [$2]
)
MANIFEST
  awk '/^## Install/ { exit } /^```swift$/ { inside = 1; next } /^```$/ { inside = 0; next } inside { print }' \
    "$repo/README.md" > "$scratch/Sources/FirstScreen/main.swift"
  local lines
  lines=$(wc -l < "$scratch/Sources/FirstScreen/main.swift")
  (( lines > 0 )) || { echo "error: found no swift block above '## Install' in README.md" >&2; exit 1; }
  echo "README.md: $lines lines of Swift above '## Install' ($1)"
  if ! swift build --package-path "$scratch" -Xswiftc -warnings-as-errors > "$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    echo "error: the README's first screen does not compile ($1; above); it is $scratch/Sources/FirstScreen/main.swift" >&2
    exit 1
  fi
  echo "the README's first screen compiles as written ($1)"
}

rm -rf "$repo/.build-readme"
build_first_screen swift6 .v6 ""
build_first_screen swift5 .v5 '.enableUpcomingFeature("InferSendableFromCaptures")'
