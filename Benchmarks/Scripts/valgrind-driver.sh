# Sourced by check-instructions.sh and instruction-breakdown.sh (not run on its own).
#
# prepare_driver PACKAGE_DIR PRODUCT: builds PRODUCT of the Benchmarks package in release and copies it, without its
# debug info, to "$work/driver" (valgrind 3.19 cannot read the toolchain's DWARF 5 debug info). Sets `work`, a
# temporary directory removed when the calling script exits.
prepare_driver() {
  command -v valgrind > /dev/null || { echo "error: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
  swift build -c release --package-path "$1" --product "$2" > /dev/null
  local binary
  binary="$(swift build -c release --package-path "$1" --show-bin-path)/$2"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cp "$binary" "$work/driver" && strip -g "$work/driver"
}
