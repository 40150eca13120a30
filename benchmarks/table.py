#!/usr/bin/env python3
"""Turns JMH JSON results into the Markdown table of benchmarks/results/latest.md
(or, with --profile redis, the admissions-per-second table of benchmarks/results/redis.md).

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
STACKS = ["direct", "retry", "breakerClassic", "breakerRate", "limiter", "bulkhead", "bulkheadAdaptive", "timeout",
          "fourPatterns", "sixPatterns", "retryAsync", "fourPatternsAsync",
          "refusalOnly", "rejectedNoListener", "rejectedWithListener"]
# Stacks that only Brace has, compared with the nearest stack the other libraries have.
COMPARED_WITH = {"bulkheadAdaptive": "bulkhead"}
NOTES = {
    ("Brace", "bulkheadAdaptive"): "Vegas limit, timed per call; compared with the others' fixed bulkheads (neither has an adaptive one)",
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
    other = by_key.get((library, COMPARED_WITH.get(row["stack"], row["stack"]), row["threads"]))
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


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def render_redis(paths, round_trips):
    """Throughput of RedisAdmissionBenchmarks: medians of the measured iterations, and the ratio
    of Brace's median to Bucket4j's at the same thread count (above 1 = Brace admits more)."""
    rows = []
    jvm = None
    for path in paths:
        with open(path) as f:
            for entry in json.load(f):
                primary = entry["primaryMetric"]
                samples = [v for fork in primary.get("rawData", []) for v in fork]
                rows.append({
                    "design": entry["benchmark"].rsplit(".", 1)[-1],
                    "threads": entry["threads"],
                    "median": median(samples) if samples else primary["score"],
                    "low": min(samples) if samples else None,
                    "high": max(samples) if samples else None,
                    "score": primary["score"],
                    "error": number(primary.get("scoreError")),
                })
                jvm = jvm or f'{entry.get("vmName", "?")} {entry.get("jdkVersion", "?")}'
    by_key = {(r["design"], r["threads"]): r for r in rows}
    lines = [
        "# Redis rate limiter: admissions per second",
        "",
        f"- {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}; machine: {os.cpu_count()} CPUs, "
        f"{cpu_model()}; {jvm}; redis-server on loopback, started per trial",
        "- One bucket shared by all threads, so large it always admits. Median of the measured "
        "iterations (admissions/s), their range, and JMH's mean ± 99.9% error.",
        "",
        "| design | threads | median adm/s | min–max | mean ± error | Brace ÷ Bucket4j (medians) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in sorted(rows, key=lambda r: (r["threads"], r["design"])):
        other = by_key.get(("bucket4j", row["threads"]))
        brace = by_key.get(("brace", row["threads"]))
        ratio_text = f'{brace["median"] / other["median"]:.2f}×' if row["design"] == "brace" and other else ""
        spread = f'{row["low"]:,.0f}–{row["high"]:,.0f}' if row["low"] is not None else "—"
        error = f' ± {row["error"]:,.0f}' if row["error"] is not None else ""
        lines.append(f'| {row["design"]} | {row["threads"]} | {row["median"]:,.0f} | {spread} '
                     f'| {row["score"]:,.0f}{error} | {ratio_text} |')
    text = "\n".join(lines) + "\n"
    if round_trips and os.path.exists(round_trips):
        with open(round_trips) as f:
            text += "\n" + f.read().replace("# Redis round trips", "## Redis round trips", 1)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--profile", default="short")
    parser.add_argument("--out", required=True)
    parser.add_argument("--round-trips", help="with --profile redis: RedisRoundTrips' table to append")
    parser.add_argument("results", nargs="+", help="JMH JSON result files")
    args = parser.parse_args()
    if args.profile == "redis":
        with open(args.out, "w") as f:
            f.write(render_redis(args.results, args.round_trips))
        return
    rows, jvm = load(args.results)
    with open(args.out, "w") as f:
        f.write(render(rows, jvm, args.profile))


if __name__ == "__main__":
    main()
