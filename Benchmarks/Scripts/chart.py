#!/usr/bin/env python3
"""Turns a package-benchmark `--format influx` export into the figures of Docs/Performance.md.

    python3 Benchmarks/Scripts/chart.py Benchmarks/.results/*/Current_run.influx.csv \
        --svg Docs/performance-chart.svg --csv Docs/performance-results.csv --doc Docs/Performance.md

Several exports may be given (Scripts/publish.sh makes one per pass: allocations, wall clock, CPU and memory);
their metrics are merged per benchmark, a later file winning where two measured the same metric.

Writes:
  --svg  the chart: cost per stage against chain length for every contender, one panel per `then` shape, time on
         the top row and allocations on the bottom row (log-log).
  --csv  one row per benchmark: per unit of work, the median wall clock and thread CPU time, allocations and
         bytes; and the peak resident memory of the run.
  --doc  replaces the text between `<!-- results:begin -->` and `<!-- results:end -->` with the result tables.
Without --doc the tables are printed to standard output.

Only the Python standard library is used (no matplotlib).

Benchmark names are `Contender.scenario.size`. One measured iteration runs a fixed amount of work (see
Benchmarks/Sources/BenchmarkSupport/Scenario.swift), and UNITS below says how many units that is, so that every
figure is per stage (chains), per child (`all`), per loop iteration (`loop`), or per pipeline/entry.
"""

import argparse
import csv
import math
import re
import sys
from collections import defaultdict

# Units of work in one measured iteration, per scenario.
UNITS = {
    "map": 1000,
    "mapResult": 1000,
    "flatMap": 1000,
    "task": 1000,
    "pendingPromise": 1000,
    "prebuilt": 1000,
    "error": 1000,
    "all": 1000,
    "zip": 1000,
    "loop": 10000,
    "taskLoop": 10000,
    "itunes": 10,
    "taskEntry": 10,
}
UNIT_NAMES = {
    "map": "stage",
    "mapResult": "stage",
    "flatMap": "stage",
    "task": "stage",
    "pendingPromise": "stage",
    "prebuilt": "stage",
    "error": "stage",
    "all": "child",
    "zip": "child",
    "loop": "iteration",
    "taskLoop": "iteration",
    "itunes": "pipeline",
    "taskEntry": "entry",
}

# Contenders in the order tables and legends show them, with their chart style.
CONTENDERS = [
    ("Composition", "direct closure composition (reference)", "#9e9e9e", "2,3"),
    ("Callbacks", "hand-written callbacks (floor)", "#424242", "6,3"),
    ("Promise", "LazyPromise Promise (lazy)", "#1565c0", ""),
    ("Future", "LazyPromise Future (eager)", "#00897b", ""),
    ("NIO", "swift-nio EventLoopFuture", "#ef6c00", ""),
    ("OpenCombine", "OpenCombine Deferred{Future}", "#c62828", ""),
    ("Async", "async/await (one Task)", "#6a1b9a", ""),
]
CONTENDER_ORDER = [c[0] for c in CONTENDERS]
SHAPES = [("map", "T -> U"), ("mapResult", "T -> Result"), ("flatMap", "T -> Promise(value:), no join")]
# The joins (issue 21): a stage waits for a promise made from a task, or for a pending future's promise.
JOINS = [
    ("task", "T -> Promise made from a task: a join"),
    ("pendingPromise", "T -> a pending Future's promise, resolved after the stage returns: a join"),
]
# The callbacks scenario a scenario is compared with, where it is not the one of the same name.
FLOOR_SCENARIO = {"pendingPromise": "task", "taskLoop": "loop"}
LENGTHS = [1, 10, 100, 1000]

NAME = re.compile(r"^(?P<contender>[A-Za-z]+)\.(?P<scenario>[A-Za-z]+)\.(?P<size>[0-9]+)$")


def metric_key(metric):
    """Maps package-benchmark's metric descriptions (spaces removed by the influx export) to short keys."""
    m = metric.lower()
    if "wallclock" in m:
        return "wall"
    if "threadcpu" in m:
        return "cpu"
    if "malloc" in m and "bytes" in m:
        return "bytes"
    if "malloc" in m and "total" in m:
        return "mallocs"
    if "residentpeak" in m or "peakmemoryresident" in m:
        return "peak"
    return None


def read_influx(paths):
    """Returns {(target, name): {metric: {"p": {percentile: value}, "avg": average, "unit": unit}}} and the host."""
    results = defaultdict(dict)
    host = {}
    for path in paths:
        read_one(path, results, host)
    return results, host


def read_one(path, results, host):
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    header = rows[0]
    col = {name: i for i, name in enumerate(header)}
    seen = set()
    for row in rows[1:]:
        if row == header:
            continue
        key = metric_key(row[col["metric"]])
        if key is None:
            continue
        target, test = row[col["measurement"]], row[col["test"]].strip('"')
        if (target, test, key) not in seen:  # a later file replaces an earlier one's figures for this metric
            seen.add((target, test, key))
            results[(target, test)].pop(key, None)
        entry = results[(target, test)].setdefault(key, {"p": {}, "avg": None, "unit": row[col["unit"]]})
        entry["p"][float(row[col["percentile"]])] = float(row[col["value"]])
        entry["avg"] = float(row[col["test_average"]])
        host.update({
            "processorType": row[col["processoryType"]],
            "processors": row[col["processors"]],
            "memory": row[col["memory"]],
            "kernelVersion": row[col["kernelVersion"]],
        })


def summarize(results):
    """Per benchmark: per-unit median wall clock and thread CPU (ns), mallocs, bytes; peak resident memory."""
    rows = {}
    for (target, test), metrics in results.items():
        match = NAME.match(test)
        if not match:
            continue
        contender, scenario, size = match["contender"], match["scenario"], int(match["size"])
        units = UNITS.get(scenario, 1)

        def median(key):
            entry = metrics.get(key)
            return None if entry is None else entry["p"].get(50.0)

        def per_unit(value):
            return None if value is None else value / units

        peak = metrics.get("peak")
        rows[(contender, scenario, size)] = {
            "target": target,
            "contender": contender,
            "scenario": scenario,
            "size": size,
            "unit": UNIT_NAMES.get(scenario, "iteration"),
            "ns": per_unit(median("wall")),
            "cpu_ns": per_unit(median("cpu")),
            "allocs": per_unit(median("mallocs")),
            "bytes": per_unit(median("bytes")),
            "peak_mb": (max(peak["p"].values()) / 1e6) if peak else None,
        }
    return rows


# MARK: - Tables


def fmt(value, digits):
    if value is None:
        return "–"
    if value >= 100 and digits <= 1:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def ratio(value, floor):
    if value is None or not floor:
        return "–"
    return f"{value / floor:.2f}×"


def contenders_in(rows, scenario):
    present = {c for (c, s, _) in rows if s == scenario}
    return [c for c in CONTENDER_ORDER if c in present]


def label(contender):
    return next((c[1] for c in CONTENDERS if c[0] == contender), contender)


def chain_tables(rows):
    out = []
    for shape, title in SHAPES + JOINS + [("prebuilt", "prebuilt `T -> U` chain, run only"), ("error", "failure at the first stage")]:
        present = contenders_in(rows, shape)
        if not present:
            continue
        out.append(f"### {shape} ({title})\n")
        out.append("ns/stage · allocations/stage · time ratio to hand-written callbacks (same scenario and N)\n")
        out.append("| contender | " + " | ".join(f"N = {n}" for n in LENGTHS) + " |")
        out.append("|---|" + "---:|" * len(LENGTHS))
        for contender in present:
            cells = []
            for n in LENGTHS:
                row = rows.get((contender, shape, n))
                floor_shape = FLOOR_SCENARIO.get(shape, shape)
                floor_row = rows.get(("Callbacks", floor_shape, n)) or rows.get(("Callbacks", "map", n))
                if row is None:
                    cells.append("–")
                    continue
                floor = floor_row["ns"] if floor_row else None
                cells.append(f"{fmt(row['ns'], 1)} ns · {fmt(row['allocs'], 2)} · {ratio(row['ns'], floor)}")
            out.append(f"| {label(contender)} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def other_tables(rows):
    out = ["### Other scenarios\n"]
    out.append("| contender | scenario | ns per unit | allocations per unit | bytes per unit | ratio to callbacks |")
    out.append("|---|---|---:|---:|---:|---:|")
    for scenario in ["all", "zip", "loop", "taskLoop", "itunes", "taskEntry"]:
        for contender in contenders_in(rows, scenario):
            for (c, s, size), row in sorted(rows.items()):
                if c != contender or s != scenario:
                    continue
                floor_row = rows.get(("Callbacks", FLOOR_SCENARIO.get(scenario, scenario), size))
                floor = floor_row["ns"] if floor_row else None
                out.append(
                    f"| {label(contender)} | `{scenario}` {size} (per {row['unit']}) | {fmt(row['ns'], 1)} | "
                    f"{fmt(row['allocs'], 2)} | {fmt(row['bytes'], 0)} | {ratio(row['ns'], floor)} |"
                )
    out.append("")
    out.append("### CPU, bytes and peak memory (chains of 1000 `T -> U` stages)\n")
    out.append("| contender | wall ns/stage | thread CPU ns/stage | bytes/stage | peak resident memory |")
    out.append("|---|---:|---:|---:|---:|")
    for contender in contenders_in(rows, "map"):
        row = rows.get((contender, "map", 1000))
        if row is None:
            continue
        peak = f"{row['peak_mb']:.0f} MB" if row["peak_mb"] is not None else "–"
        out.append(
            f"| {label(contender)} | {fmt(row['ns'], 1)} | {fmt(row['cpu_ns'], 1)} | {fmt(row['bytes'], 0)} | {peak} |"
        )
    out.append("")
    return out


def goal_table(rows):
    """The goals of issue 6, checked against this run.

    Allocation goals are per stage (per loop iteration): the marginal count between two lengths, so that what a
    run allocates once (its handle, its source) is not charged to the stages; that fixed part is shown too.
    """

    def get(contender, scenario, size, field):
        row = rows.get((contender, scenario, size))
        return None if row is None else row[field]

    def time_ratio(contender, scenario, other, field, other_scenario=None):
        a, b = get(contender, scenario, 1000, field), get(other, other_scenario or scenario, 1000, field)
        return None if a is None or not b else a / b

    def marginal(contender, scenario, small, large):
        a_small, a_large = get(contender, scenario, small, "allocs"), get(contender, scenario, large, "allocs")
        if a_small is None or a_large is None:
            return None
        per_run_small, per_run_large = a_small * small, a_large * large
        slope = (per_run_large - per_run_small) / (large - small)
        return slope, per_run_large - slope * large

    out = ["| goal | measured | verdict |", "|---|---:|---|"]

    def verdict(value, limit, amortized_note=""):
        if value <= limit + 1e-9:
            return "met"
        excess = (value / limit - 1) * 100
        if excess < 1 and amortized_note:
            return f"met to within {excess:.1f} % ({amortized_note})"
        return f"**missed** by {excess:.0f} %"

    def add_ratio(goal, value, limit):
        if value is None:
            out.append(f"| {goal} | not measured | – |")
        else:
            out.append(f"| {goal} | {value:.2f}× | {verdict(value, limit)} |")

    def add_allocs(goal, contender, scenario, small, large, unit, limit):
        found = marginal(contender, scenario, small, large)
        if found is None:
            out.append(f"| {goal} | not measured | – |")
            return
        slope, fixed = found
        note = "deferred trampoline hops, see below"
        out.append(f"| {goal} | {slope:.3f} per {unit} (+{fixed:.0f} per run) | {verdict(slope, limit, note)} |")

    add_ratio("`Promise` map, N = 1000: wall-clock time ≤ 1.1× callbacks",
              time_ratio("Promise", "map", "Callbacks", "ns"), 1.1)
    add_ratio("`Promise` map, N = 1000: thread CPU time ≤ 1.1× callbacks",
              time_ratio("Promise", "map", "Callbacks", "cpu_ns"), 1.1)
    add_allocs("`Promise` map: allocations per stage, built and run ≤ 2", "Promise", "map", 100, 1000, "stage", 2)
    add_allocs("`Promise` prebuilt map: allocations per stage per run ≤ 1", "Promise", "prebuilt", 100, 1000,
               "stage", 1)
    add_ratio("`Future` map, N = 1000: wall-clock time ≤ swift-nio", time_ratio("Future", "map", "NIO", "ns"), 1.0)
    add_ratio("`Future` map, N = 1000: thread CPU time ≤ swift-nio",
              time_ratio("Future", "map", "NIO", "cpu_ns"), 1.0)
    add_allocs("`Future` map: allocations per stage ≤ 2", "Future", "map", 100, 1000, "stage", 2)
    add_allocs("`Promise` T -> Promise(value:), no join: allocations per stage ≤ 3", "Promise", "flatMap", 100, 1000,
               "stage", 3)
    add_allocs("`Future` T -> Future(value:), no join: allocations per stage ≤ 3", "Future", "flatMap", 100, 1000,
               "stage", 3)
    add_allocs("`Promise` recursive loop: allocations per iteration ≤ 3", "Promise", "loop", 1000, 10000,
               "iteration", 3)
    add_allocs("`Future` recursive loop: allocations per iteration ≤ 3", "Future", "loop", 1000, 10000,
               "iteration", 3)
    # Issue 21: the join users write, a stage returning a promise made from a task.
    add_ratio("`Promise` join on a task, N = 1000: thread CPU time ≤ 1.5× callbacks",
              time_ratio("Promise", "task", "Callbacks", "cpu_ns"), 1.5)
    add_allocs("`Promise` join on a task: allocations per stage ≤ 3", "Promise", "task", 100, 1000,
               "stage", 3)
    add_ratio("`Promise` loop through a task, 1000 iterations: thread CPU time ≤ 1.5× callbacks",
              time_ratio("Promise", "taskLoop", "Callbacks", "cpu_ns", "loop"), 1.5)
    add_allocs("`Promise` loop through a task: allocations per iteration ≤ 3", "Promise", "taskLoop",
               1000, 10000, "iteration", 3)
    out.append("")
    return out


# MARK: - Chart


def svg_chart(rows, title):
    panel_w, panel_h = 300, 230
    margin_l, margin_t, gap_x, gap_y = 70, 70, 40, 70
    legend_h = 30 + 18 * ((len(CONTENDERS) + 1) // 2)
    width = margin_l + 3 * panel_w + 2 * gap_x + 30
    height = margin_t + 2 * panel_h + gap_y + 60 + legend_h
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="28" text-anchor="middle" font-size="16" font-weight="bold">{escape(title)}</text>',
        f'<text x="{width / 2}" y="48" text-anchor="middle" fill="#555">median per stage, chain built and run '
        f"(log–log; lower is better)</text>",
    ]
    metrics = [("ns", "ns per stage"), ("allocs", "allocations per stage")]
    for r, (metric, ylabel) in enumerate(metrics):
        values = [
            row[metric]
            for (c, s, n), row in rows.items()
            if s in dict(SHAPES) and row[metric] is not None and row[metric] > 0
        ]
        if not values:
            continue
        lo = 10 ** math.floor(math.log10(min(values)))
        hi = 10 ** math.ceil(math.log10(max(values)))
        if hi / lo < 100:
            hi = lo * 100
        has_zero = any(
            row[metric] == 0 for (c, s, n), row in rows.items() if s in dict(SHAPES) and row[metric] is not None
        )
        if has_zero:
            lo /= 10  # the bottom line stands for zero, one decade below the smallest non-zero value
        for col, (shape, shape_title) in enumerate(SHAPES):
            x0 = margin_l + col * (panel_w + gap_x)
            y0 = margin_t + r * (panel_h + gap_y)
            parts += panel(rows, shape, metric, x0, y0, panel_w, panel_h, lo, hi, has_zero)
            if r == 0:
                parts.append(
                    f'<text x="{x0 + panel_w / 2}" y="{y0 - 10}" text-anchor="middle" font-weight="bold">'
                    f"{escape(shape)} ({escape(shape_title)})</text>"
                )
            if col == 0:
                cy = y0 + panel_h / 2
                parts.append(
                    f'<text x="{x0 - 50}" y="{cy}" text-anchor="middle" transform="rotate(-90 {x0 - 50} {cy})">'
                    f"{escape(ylabel)}</text>"
                )
            parts.append(
                f'<text x="{x0 + panel_w / 2}" y="{y0 + panel_h + 32}" text-anchor="middle" fill="#555">'
                "chain length N</text>"
            )
    # Legend
    ly = margin_t + 2 * panel_h + gap_y + 55
    shown = [entry for entry in CONTENDERS if any(c == entry[0] for (c, _, _) in rows)]
    for i, (name, text, color, dash) in enumerate(shown):
        lx = margin_l + (i % 2) * 420
        y = ly + (i // 2) * 18
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line x1="{lx}" y1="{y}" x2="{lx + 30}" y2="{y}" stroke="{color}" stroke-width="2.5"{dash_attr}/>'
        )
        parts.append(f'<circle cx="{lx + 15}" cy="{y}" r="3" fill="{color}"/>')
        parts.append(f'<text x="{lx + 38}" y="{y + 4}">{escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def panel(rows, shape, metric, x0, y0, w, h, lo, hi, has_zero):
    parts = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#fafafa" stroke="#bbb"/>']

    def px(n):
        return x0 + 15 + (w - 30) * (math.log10(n) / math.log10(LENGTHS[-1]))

    def py(v):
        return y0 + h - h * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    # Grid: decades on y, chain lengths on x.
    decade = lo
    while decade <= hi * 1.0001:
        y = py(decade)
        parts.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        text = "0" if has_zero and decade == lo else tick(decade)
        parts.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#555">{text}</text>')
        decade *= 10
    for n in LENGTHS:
        x = px(n)
        parts.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + h}" stroke="#eeeeee"/>')
        parts.append(f'<text x="{x:.1f}" y="{y0 + h + 15}" text-anchor="middle" fill="#555">{n}</text>')
    for name, _, color, dash in CONTENDERS:
        points = []
        for n in LENGTHS:
            row = rows.get((name, shape, n))
            if row is not None and row[metric] is not None:
                value = max(row[metric], lo)  # zero sits on the bottom line
                points.append((px(n), py(value)))
        if not points:
            continue
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"{dash_attr}/>')
        for x, y in points:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>')
    return parts


def tick(value):
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:g}"
    return f"{value:g}"


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# MARK: - Main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("exports", nargs="+", help="influx CSV files package-benchmark wrote (Current_run.influx.csv)")
    parser.add_argument("--svg", help="where to write the chart")
    parser.add_argument("--csv", help="where to write the per-benchmark summary")
    parser.add_argument("--doc", help="a Markdown file whose results section to replace")
    parser.add_argument("--title", default="LazyPromise and its peers: cost per stage against chain length")
    args = parser.parse_args()

    results, host = read_influx(args.exports)
    rows = summarize(results)
    if not rows:
        sys.exit(f"error: no LazyPromise benchmarks found in {', '.join(args.exports)}")

    if args.svg:
        with open(args.svg, "w") as f:
            f.write(svg_chart(rows, args.title))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            fields = ["target", "contender", "scenario", "size", "unit", "ns", "cpu_ns", "allocs", "bytes", "peak_mb"]
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            order = {c: i for i, c in enumerate(CONTENDER_ORDER)}
            for key in sorted(rows, key=lambda k: (k[1], order.get(k[0], 99), k[2])):
                row = dict(rows[key])
                for field in ["ns", "cpu_ns", "allocs", "bytes", "peak_mb"]:
                    if row[field] is not None:
                        row[field] = f"{row[field]:.3f}"
                writer.writerow(row)

    machine = (
        f"Host as package-benchmark recorded it: {host.get('processors', '?')} × {host.get('processorType', '?')}, "
        f"{int(host.get('memory', 0) or 0)} GB (details under [Machine and toolchain](#machine-and-toolchain)).\n"
    )
    tables = "\n".join(
        [machine, "### Goals, checked against this run\n"] + goal_table(rows) + chain_tables(rows) + other_tables(rows)
    )
    if args.doc:
        with open(args.doc) as f:
            text = f.read()
        begin, end = "<!-- results:begin -->", "<!-- results:end -->"
        if begin not in text or end not in text:
            sys.exit(f"error: {args.doc} has no {begin} … {end} section")
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        with open(args.doc, "w") as f:
            f.write(head + begin + "\n" + tables + "\n" + end + tail)
    else:
        print(tables)


if __name__ == "__main__":
    main()
