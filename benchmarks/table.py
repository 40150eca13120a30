#!/usr/bin/env python3
"""Turns JMH JSON results into the Markdown table of benchmarks/results/latest.md.

Benchmarks are named <Library>Benchmarks.<stack>; a row's ratios divide its mean time by the
Resilience4j and Failsafe means for the same stack at the same thread count (below 1 = faster).
"""
import argparse
import datetime
import json
import math
import os
import platform

LIBRARIES = ["Direct", "Brace", "Resilience4j", "Failsafe", "Emission"]
STACKS = ["direct", "retry", "breakerClassic", "breakerRate", "limiter", "bulkhead", "timeout",
          "fourPatterns", "sixPatterns", "retryAsync", "fourPatternsAsync",
          "refusalOnly", "rejectedNoListener", "rejectedWithListener"]
NOTES = {
    ("Resilience4j", "sixPatterns"): "no timeout: Resilience4j's TimeLimiter only bounds futures",
    ("Failsafe", "retryAsync"): "includes a thread hop: Failsafe runs every async execution on its scheduler",
    ("Failsafe", "fourPatternsAsync"): "includes a thread hop: Failsafe runs every async execution on its scheduler",
}


def parse_name(benchmark):
    cls, stack = benchmark.rsplit(".", 1)
    library = cls.rsplit(".", 1)[-1].removesuffix("Benchmarks")
    return library, stack


def number(value):
    return value if isinstance(value, (int, float)) and not math.isnan(value) else None


def load(paths):
    rows = []
    jvm = None
    for path in paths:
        with open(path) as f:
            for entry in json.load(f):
                library, stack = parse_name(entry["benchmark"])
                primary = entry["primaryMetric"]
                alloc = entry.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {})
                rows.append({
                    "library": library,
                    "stack": stack,
                    "threads": entry["threads"],
                    "score": primary["score"],
                    "error": number(primary.get("scoreError")),
                    "bytes": number(alloc.get("score")),
                })
                jvm = jvm or f'{entry.get("vmName", "?")} {entry.get("jdkVersion", "?")}'
    return rows, jvm


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def ratio(row, by_key, library):
    other = by_key.get((library, row["stack"], row["threads"]))
    if other is None or row["library"] == "Direct":
        return "—"
    return f'{row["score"] / other["score"]:.2f}×'


def order(row):
    stack = STACKS.index(row["stack"]) if row["stack"] in STACKS else len(STACKS)
    library = LIBRARIES.index(row["library"]) if row["library"] in LIBRARIES else len(LIBRARIES)
    return stack, row["stack"], row["threads"], library


def render(rows, jvm, profile):
    by_key = {(r["library"], r["stack"], r["threads"]): r for r in rows}
    lines = [
        "# Benchmark results",
        "",
        f"- Profile: `{profile}`, {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}"
        + (" — smoke run: proves the pipeline, the numbers mean nothing" if profile == "smoke" else ""),
        f"- Machine: {os.cpu_count()} CPUs, {cpu_model()}; {jvm}",
        "- ns/op: JMH average time, ± its 99.9% error (— with a single iteration); "
        "B/op: `gc.alloc.rate.norm`; ratios: this mean ÷ that library's mean for the same stack "
        "and threads (0.20× = five times less time).",
        "",
        "| benchmark | threads | ns/op | B/op | vs Resilience4j | vs Failsafe |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for row in sorted(rows, key=order):
        name = f'{row["library"]}.{row["stack"]}'
        note = NOTES.get((row["library"], row["stack"]))
        if note:
            if note not in notes:
                notes.append(note)
            name += f"<sup>{notes.index(note) + 1}</sup>"
        error = f' ± {row["error"]:.1f}' if row["error"] is not None else ""
        bytes_per_op = f'{row["bytes"]:.0f}' if row["bytes"] is not None else "—"
        lines.append(
            f'| {name} | {row["threads"]} | {row["score"]:.1f}{error} | {bytes_per_op} '
            f'| {ratio(row, by_key, "Resilience4j")} | {ratio(row, by_key, "Failsafe")} |')
    if notes:
        lines.append("")
        lines.extend(f"{i + 1}. {note}" for i, note in enumerate(notes))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", default="short")
    parser.add_argument("--out", required=True)
    parser.add_argument("results", nargs="+", help="JMH JSON result files")
    args = parser.parse_args()
    rows, jvm = load(args.results)
    with open(args.out, "w") as f:
        f.write(render(rows, jvm, args.profile))


if __name__ == "__main__":
    main()
