#!/usr/bin/env python3
"""Compiles every ```swift block of README.md and of each .md under Docs/ (issue 22: a guide's snippets compile).

The convention (also at the top of Docs/README.md):

- The swift blocks of one page compile together, in page order, as the main.swift of one executable target of a
  generated package (.build-docs) that depends on this repository by path; warnings are errors (Swift 6 mode).
- A page's prelude, .ci/doc-blocks/<page path>.swift (e.g. .ci/doc-blocks/Docs/Guides/Time.swift), is another file
  of that module: the imports and the names its examples use without defining them (a `lookup(id:)`, a `show`
  handler, ...). Its imports (its first lines) are copied to the top of main.swift. .ci/doc-blocks/Shared.swift
  (a callback `client`) is a file of every page's module.
- The blocks of the example guides (ITunesLookup.md, PhotoAlbums.md) compile in one module with the example's
  sources and ExampleSupport's, so they are checked against the real program.
- An HTML comment on the line before a block changes how it is checked:
    <!-- doc-block: scope -->                 compiled inside its own `do { }` (it reuses names of another block)
    <!-- doc-block: file -->                  compiled as a file of its own in the page's module (a `@Test`)
    <!-- doc-block: manifest -->              a Package.swift fragment, type-checked against PackageDescription
    <!-- doc-block: signatures -->            bodiless declarations; each must appear in the page's example sources
    <!-- doc-block: error: TEXT -->           must NOT compile (after the prelude), with TEXT in the diagnostics
    <!-- doc-block: skip: REASON -->          not compiled; the reason is required
- Errors point at the page and line: every block is preceded by a #sourceLocation directive.
"""

import os
import re
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(REPO, ".build-docs")
PRELUDES = os.path.join(REPO, ".ci", "doc-blocks")
# Pages whose blocks quote an example program: they compile together with that program's sources (not its main.swift).
EXAMPLES = {"Docs/Examples/ITunesLookup.md": "ITunesLookup", "Docs/Examples/PhotoAlbums.md": "PhotoAlbums"}

FENCE_OPEN = re.compile(r"^(\s*)```swift\s*$")
ANNOTATION = re.compile(r"^\s*<!--\s*doc-block:\s*([a-z]+)\s*(?::\s*(.*?))?\s*-->\s*$")
KINDS = {"scope", "file", "manifest", "signatures", "error", "skip"}


def fail(message):
  print(f"error: {message}", file=sys.stderr)
  sys.exit(1)


def pages():
  found = []
  for root, _, files in os.walk(os.path.join(REPO, "Docs")):
    found += [os.path.relpath(os.path.join(root, f), REPO) for f in files if f.endswith(".md")]
  return ["README.md"] + sorted(found)


def blocks(page):
  """Yields (first line number of the code, kind, argument, code lines) for each ```swift block of a page."""
  lines = open(os.path.join(REPO, page), encoding="utf-8").read().split("\n")
  index = 0
  while index < len(lines):
    opening = FENCE_OPEN.match(lines[index])
    if not opening:
      index += 1
      continue
    indent = opening.group(1)
    previous = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
    annotation = ANNOTATION.match(previous)
    kind, argument = (annotation.group(1), annotation.group(2) or "") if annotation else ("", "")
    if annotation and kind not in KINDS:
      fail(f"{page}:{index}: unknown doc-block kind '{kind}' (one of {', '.join(sorted(KINDS))})")
    if kind in ("error", "skip") and not argument:
      fail(f"{page}:{index}: 'doc-block: {kind}' needs {'the expected message' if kind == 'error' else 'a reason'}")
    start = index + 1
    index = start
    while index < len(lines) and lines[index].rstrip() != indent + "```":
      index += 1
    if index == len(lines):
      fail(f"{page}:{start}: a swift block is never closed")
    code = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[start:index]]
    yield start + 1, kind, argument, code
    index += 1


def target_name(page):
  stem = page[:-3].replace("Docs/", "", 1) if page != "README.md" else "README"
  return "Doc_" + re.sub(r"[^A-Za-z0-9]", "_", stem)


def located(page, line, code):
  return [f'#sourceLocation(file: "{os.path.join(REPO, page)}", line: {line})'] + code + ["#sourceLocation()"]


def prelude(page):
  path = os.path.join(PRELUDES, page[:-3] + ".swift")
  return open(path, encoding="utf-8").read().split("\n") if os.path.exists(path) else []


def run(command, cwd=None):
  return subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def check_manifest(page, line, code, toolchain_pm):
  first = code[0].lstrip() if code else ""
  slot = "dependencies" if first.startswith(".package(") else "targets"
  opening = f"let package = Package(name: \"Doc\", {slot}: ["
  source = ["import PackageDescription"] + located(page, line - 1, [opening] + code)[:-1] + ["])"]
  path = os.path.join(SCRATCH, "manifests", f"{target_name(page)}_{line}.swift")
  os.makedirs(os.path.dirname(path), exist_ok=True)
  open(path, "w", encoding="utf-8").write("\n".join(source) + "\n")
  result = run(["swiftc", "-typecheck", "-I", toolchain_pm, "-package-description-version", "6.1", path])
  if result.returncode != 0:
    print(result.stdout)
    fail(f"{page}:{line}: the Package.swift fragment does not type-check")


def check_signatures(page, line, code):
  example = EXAMPLES.get(page)
  if not example:
    fail(f"{page}:{line}: 'doc-block: signatures' is for the example guides ({', '.join(EXAMPLES)})")
  folder = os.path.join(REPO, "Sources", example)
  sources = " ".join(
    " ".join(open(os.path.join(folder, f), encoding="utf-8").read().split())
    for f in os.listdir(folder) if f.endswith(".swift"))
  for offset, declaration in enumerate(code):
    declaration = declaration.split("//")[0].strip()
    if declaration and " ".join(declaration.split()) not in sources:
      fail(f"{page}:{line + offset}: '{declaration}' is not in Sources/{example}")


def write_package(targets):
  manifest = [
    "// swift-tools-version: 6.1",
    "import PackageDescription",
    "",
    "let package = Package(",
    '  name: "DocBlocks",',
    '  platforms: [.macOS(.v15)],',
    f'  dependencies: [.package(name: "LazyPromise", path: "{REPO}")],',
    "  targets: [",
  ]
  for name, extra in targets:
    manifest += [
      "    .executableTarget(",
      f'      name: "{name}",',
      "      dependencies: [",
      '        .product(name: "LazyPromise", package: "LazyPromise"),',
      '        .product(name: "LazyPromiseFoundation", package: "LazyPromise"),',
      "      ]" + extra + "),",
    ]
  manifest += ["  ],", "  swiftLanguageModes: [.v6]", ")"]
  open(os.path.join(SCRATCH, "Package.swift"), "w", encoding="utf-8").write("\n".join(manifest) + "\n")


def link_example(example, folder):
  """Copies an example's sources (not its main.swift) and ExampleSupport's into a page's target folder, as one module
  (a target named ExampleSupport here would clash with the repository's), and links its resources."""
  for part in (example, "ExampleSupport"):
    source = os.path.join(REPO, "Sources", part)
    for entry in os.listdir(source):
      if entry == "Resources":
        os.symlink(os.path.join(source, entry), os.path.join(folder, entry))
      elif entry.endswith(".swift") and entry not in ("main.swift", "make-recordings.swift"):
        text = open(os.path.join(source, entry), encoding="utf-8").read().replace("import ExampleSupport\n", "")
        open(os.path.join(folder, f"{part}_{entry}"), "w", encoding="utf-8").write(text)


def main():
  started = time.monotonic()
  shutil.rmtree(SCRATCH, ignore_errors=True)
  os.makedirs(os.path.join(SCRATCH, "Sources"))
  swift = shutil.which("swift") or fail("no swift on PATH")
  toolchain_pm = os.path.join(os.path.dirname(os.path.realpath(swift)), "..", "lib", "swift", "pm", "ManifestAPI")

  targets, expected_errors, counts = [], [], {k: 0 for k in KINDS | {"compiled"}}
  for page in pages():
    page_blocks = list(blocks(page))
    if not page_blocks:
      continue
    name = target_name(page)
    folder = os.path.join(SCRATCH, "Sources", name)
    os.makedirs(folder)
    # The prelude is a file of its own, so its names are plain globals (a main.swift's are main-actor state);
    # main.swift gets its imports.
    main_swift, extra = prelude_imports(page), ""
    open(os.path.join(folder, "DocPrelude.swift"), "w", encoding="utf-8").write("\n".join(prelude(page)) + "\n")
    shutil.copy(os.path.join(PRELUDES, "Shared.swift"), os.path.join(folder, "DocShared.swift"))
    if page in EXAMPLES:
      link_example(EXAMPLES[page], folder)
      extra = ', resources: [.copy("Resources")]'
    for line, kind, argument, code in page_blocks:
      if kind == "skip":
        print(f"{page}:{line}: skipped ({argument})")
      elif kind == "manifest":
        check_manifest(page, line, code, toolchain_pm)
      elif kind == "signatures":
        check_signatures(page, line, code)
      elif kind == "error":
        expected_errors.append((page, line, argument, code))
      elif kind == "file":
        open(os.path.join(folder, f"block{line}.swift"), "w", encoding="utf-8").write(
          "\n".join(prelude_imports(page) + located(page, line, code)) + "\n")
      elif kind == "scope":
        main_swift += ["do {"] + located(page, line, code) + ["}"]
      else:
        main_swift += located(page, line, code)
      counts[kind or "compiled"] += 1
    open(os.path.join(folder, "main.swift"), "w", encoding="utf-8").write("\n".join(main_swift) + "\n")
    targets.append((name, extra))

  write_package(targets)
  # --each (for fixing pages): build page by page and report every page that fails, not only the first.
  each = [["--target", target[0]] for target in targets] if "--each" in sys.argv else [[]]
  failed = False
  for selection in each:
    build = run(["swift", "build", "--package-path", SCRATCH, "-Xswiftc", "-warnings-as-errors"] + selection)
    if build.returncode != 0:
      failed = True
      shown = set()
      for text in build.stdout.split("\n"):
        if text.startswith(("[", "Building", "Compiling", "error: emit-module", "error: cancelled")) or text in shown:
          continue
        shown.add(text)
        print(text)
  if failed:
    fail("a documentation block does not compile (above: page and line); generated sources are in .build-docs/Sources")

  modules = os.path.join(SCRATCH, ".build", "debug", "Modules")
  for page, line, expected, code in expected_errors:
    # As the block's own main.swift, beside the page's prelude and the shared names: the block alone must fail.
    folder = os.path.join(SCRATCH, "errors", f"{target_name(page)}_{line}")
    os.makedirs(folder)
    open(os.path.join(folder, "main.swift"), "w", encoding="utf-8").write(
      "\n".join(prelude_imports(page) + located(page, line, code)) + "\n")
    open(os.path.join(folder, "DocPrelude.swift"), "w", encoding="utf-8").write("\n".join(prelude(page)) + "\n")
    shutil.copy(os.path.join(PRELUDES, "Shared.swift"), os.path.join(folder, "DocShared.swift"))
    files = [os.path.join(folder, f) for f in ("main.swift", "DocPrelude.swift", "DocShared.swift")]
    result = run(["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "DocError", "-I", modules] + files)
    diagnostics = [text for text in result.stdout.split("\n") if re.match(r"^\S+:\d+:\d+: error: ", text)]
    if result.returncode == 0 or not any(expected in text for text in diagnostics):
      print(result.stdout)
      fail(f"{page}:{line}: the block should fail to compile with '{expected}'")

  summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()) if n)
  print(f"documentation blocks: {summary}; {len(targets)} pages; {time.monotonic() - started:.0f} s")


def prelude_imports(page):
  """The prelude's imports (its first lines: imports, comments, #if canImport ... #endif), for the page's other files."""
  header = []
  for line in prelude(page):
    if line.strip() and not line.lstrip().startswith(("import ", "//", "#if", "#endif")):
      break
    header.append(line)
  return header


if __name__ == "__main__":
  main()
