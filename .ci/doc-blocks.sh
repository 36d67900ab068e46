#!/usr/bin/env bash
# Compiles every ```swift block of README.md and Docs/**/*.md against this repository (issue 22), page by page, each
# page's blocks after its prelude in .ci/doc-blocks/; the convention is at the top of Docs/README.md and of
# .ci/doc-blocks.py.
set -euo pipefail
exec python3 "$(dirname "$0")/doc-blocks.py" "$@"
