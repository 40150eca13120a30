#!/usr/bin/env python3
"""Turns JMH JSON results into the Markdown table of benchmarks/results/latest.md
(or, with --profile redis, the admissions-per-second table of benchmarks/results/redis.md).

Benchmarks are named <Library>Benchmarks.<stack>; a row's ratios divide its mean time by the
Resilience4j and Failsafe means for the same stack at the same thread count (below 1 = faster).
MetricsBenchmarks and MetricsLoggingBenchmarks name the library in the method instead
(braceFourPatterns, resilience4jFourPatterns, ...) and run each row on two meter registries (the
registry parameter): there a Brace row's ratio is to the Resilience4j row of the same class,
registry and threads. After the table, the performance targets read from the same run (ratios of
medians), and the virtual-thread throughput (VirtualThreadBenchmarks, run on a JDK 21+) when its
results are given.
"""
import argparse
import datetime
import json
import math
import os
import platform

LIBRARIES = ["Direct", "Brace", "Chaos", "Resilience4j", "Failsafe", "Emission"]
# Classes whose rows are the four-pattern stack with metrics bound, one row per meter registry.
METRICS = ["Metrics", "MetricsLogging"]
METRICS_ORDER = [("Metrics", "meteredFloor"), ("Metrics", "meteredFloorFollowingDeadline"), ("Metrics", "braceFourPatterns"), ("Metrics", "resilience4jFourPatterns"),
                 ("MetricsLogging", "braceFourPatterns"), ("MetricsLogging", "resilience4jFourPatterns"),
                 ("Metrics", "braceFailing"), ("Metrics", "resilience4jFailing")]
REGISTRIES = ["simple", "prometheus"]
STACKS = ["direct", "floor", "floorApart", "floorFollowingDeadline", "serviceFloor", "service", "serviceTimed", "serviceAsync", "retry", "breakerClassic", "breakerRate", "limiter", "bulkhead", "bulkheadAdaptive", "timeout",
          "timeoutAbandon", "fourPatterns", "fourPatternsNotFollowingDeadlines", "fourPatternsChaosOff", "fourPatternsChaosOnElsewhere", "deadlineNested", "sixPatterns", "directAsync", "retryAsync", "fourPatternsAsync",
          "hedgeAsync", "directMono", "monoRetry", "fourPatternsMono", "serviceMono",
          "directSuspend", "suspendRetry", "fourPatternsSuspend", "serviceFloorSuspend", "serviceSuspend", "directFlow", "flowRetry", "fourPatternsFlow", "serviceFlow",
          "refusalOnly", "rejectedNoListener", "rejectedWithListener"]
# Stacks that only Brace has, compared with the nearest stack the other libraries have.
COMPARED_WITH = {"bulkheadAdaptive": "bulkhead"}
NOTES = {
    ("Brace", "deadlineNested"): "a 10 s timeout over the four patterns, under a deadline: two calls, the inner one bounded by the inherited deadline",
    ("Brace", "bulkheadAdaptive"): "Vegas limit, timed per call; compared with the others' fixed bulkheads (neither has an adaptive one)",
    ("Resilience4j", "sixPatterns"): "no timeout: Resilience4j's TimeLimiter only bounds futures",
    ("Failsafe", "retryAsync"): "includes a thread hop: Failsafe runs every async execution on its scheduler",
    ("Failsafe", "fourPatternsAsync"): "includes a thread hop: Failsafe runs every async execution on its scheduler",
    ("Metrics", "meteredFloor"): "three clock reads, four compare-and-sets and the two timer samples BraceMetrics records on a success",
    ("Direct", "serviceFloor"): "four dependencies, one call of each: a clock read and four compare-and-sets of its own per call",
    ("Brace", "service"): "four client interfaces, each with the four patterns on its own instances, one registry; one call of each",
    ("Resilience4j", "service"): "the same four stacks, each decorated once as a Function; one call of each",
    ("Brace", "serviceAsync"): "service with asynchronous clients (a completed CompletableFuture each), each future joined",
    ("Brace", "serviceTimed"): "service with an interrupting 1 s @Timeout on each of the four: every attempt the timed way",
    ("Direct", "directSuspend"): "the target's suspend function returns its value without suspending; every suspend row calls it so, with one reusable continuation",
    ("Brace", "serviceMono"): "service with reactive clients (a Mono.just each), each Mono blocked on: four reactive wrappers hot at once",
    ("Resilience4j", "serviceMono"): "the same four stacks as resilience4j-reactor operators, applied per call; each Mono blocked on",
    ("Brace", "serviceFlow"): "service with clients returning a Flow of three (none suspends), each collected once: four Flow wrappers hot at once",
    ("Resilience4j", "serviceFlow"): "the same four stacks as resilience4j-kotlin's Flow operators, applied per collection",
    ("Direct", "serviceFloorSuspend"): "serviceFloor with the four dependencies' suspend clients, each answering without suspending",
    ("Brace", "serviceSuspend"): "service with suspend clients (each answering without suspending): four suspend wrappers hot at once",
    ("Resilience4j", "serviceSuspend"): "the same four stacks with resilience4j-kotlin's executeSuspendFunction, one call of each",
    ("Direct", "directFlow"): "one collection of the target's flow of three elements, none of which suspends; every Flow row collects so",
    ("Direct", "floorApart"): "floor with each of its four counters on a cache line of its own, as a stack's separately made instances are",
    ("Direct", "floorFollowingDeadline"): "floor after one thread-local read: is the thread under a deadline? (Deadline.current())",
    ("Brace", "fourPatternsNotFollowingDeadlines"): "fourPatterns in a registry with BRACE_DEADLINE_ENABLED=false: no read of the thread's deadline",
    ("Metrics", "meteredFloorFollowingDeadline"): "meteredFloor after one thread-local read: is the thread under a deadline?",
    ("Metrics", "braceFailing"): "both attempts fail, the breaker counts them without opening, the retry rethrows the last",
    ("Metrics", "resilience4jFailing"): "both attempts fail, the breaker counts them without opening, the retry rethrows the last",
    ("Chaos", "fourPatternsChaosOff"): "Brace.fourPatterns with fault injection switched off",
    ("Chaos", "fourPatternsChaosOnElsewhere"): "Brace.fourPatterns with fault injection switched on, injecting under another name only",
    ("MetricsLogging", "braceFourPatterns"): "slf4j-simple at INFO (every other row: no SLF4J provider)",
    ("MetricsLogging", "resilience4jFourPatterns"): "slf4j-simple at INFO (every other row: no SLF4J provider)",
}


def parse_name(benchmark):
    cls, stack = benchmark.rsplit(".", 1)
    library = cls.rsplit(".", 1)[-1].removesuffix("Benchmarks")
    return library, stack


def params_key(params):
    return tuple(sorted(params.items()))


def key(library, stack, threads, params=()):
    return library, stack, params, threads


def row_key(row):
    return key(row["library"], row["stack"], row["threads"], params_key(row["params"]))


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
                samples = [v for fork in primary.get("rawData", []) for v in fork]
                rows.append({
                    "library": library,
                    "stack": stack,
                    "threads": entry["threads"],
                    "mode": entry.get("mode", "avgt"),
                    "params": entry.get("params", {}),
                    "score": primary["score"],
                    "median": median(samples) if samples else primary["score"],
                    "error": number(primary.get("scoreError")),
                    "bytes": number(alloc.get("score")),
                    "jdk": entry.get("jdkVersion", "?"),
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
    if row["library"] in METRICS:
        other = by_key.get(metrics_peer(row)) if library == "Resilience4j" else None
    else:
        other = by_key.get(key(library, COMPARED_WITH.get(row["stack"], row["stack"]), row["threads"]))
    if other is None or row["library"] == "Direct":
        return "—"
    return f'{row["score"] / other["score"]:.2f}×'


def metrics_peer(row):
    """A metrics row's Resilience4j counterpart: same class, stack, registry and threads."""
    for prefix in ("brace", "resilience4j"):
        if row["stack"].startswith(prefix):
            stack = "resilience4j" + row["stack"][len(prefix):]
            return key(row["library"], stack, row["threads"], params_key(row["params"]))
    return None


def order(row):
    if row["library"] in METRICS:
        name = (row["library"], row["stack"])
        registry = row["params"].get("registry")
        return (1, REGISTRIES.index(registry) if registry in REGISTRIES else len(REGISTRIES), str(registry),
                row["threads"], METRICS_ORDER.index(name) if name in METRICS_ORDER else len(METRICS_ORDER), row["stack"])
    stack = STACKS.index(row["stack"]) if row["stack"] in STACKS else len(STACKS)
    library = LIBRARIES.index(row["library"]) if row["library"] in LIBRARIES else len(LIBRARIES)
    return 0, stack, row["stack"], row["threads"], library


def render(rows, jvm, profile):
    throughput = [r for r in rows if r["mode"] == "thrpt"]
    rows = [r for r in rows if r["mode"] != "thrpt"]
    by_key = {row_key(r): r for r in rows}
    lines = [
        "# Benchmark results",
        "",
        f"- Profile: `{profile}`, {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}"
        + (" — smoke run: proves the pipeline, the numbers mean nothing" if profile == "smoke" else ""),
        f"- Machine: {os.cpu_count()} CPUs, {cpu_model()}; {jvm}",
        "- ns/op: JMH average time, ± its 99.9% error (— with a single iteration); median: of the "
        "measured iterations; B/op: `gc.alloc.rate.norm`; ratios: this mean ÷ that library's mean "
        "for the same stack and threads (0.20× = five times less time); [simple], [prometheus]: the "
        "meter registry a metrics row ran on.",
        "",
        "| benchmark | threads | ns/op | median | B/op | vs Resilience4j | vs Failsafe |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for row in sorted(rows, key=order):
        name = f'{row["library"]}.{row["stack"]}'
        if row["params"]:
            name += " [" + ", ".join(str(value) for _, value in params_key(row["params"])) + "]"
        note = NOTES.get((row["library"], row["stack"]))
        if note:
            if note not in notes:
                notes.append(note)
            name += f"<sup>{notes.index(note) + 1}</sup>"
        error = f' ± {row["error"]:.1f}' if row["error"] is not None else ""
        bytes_per_op = f'{row["bytes"]:.0f}' if row["bytes"] is not None else "—"
        lines.append(
            f'| {name} | {row["threads"]} | {row["score"]:.1f}{error} | {row["median"]:.1f} | {bytes_per_op} '
            f'| {ratio(row, by_key, "Resilience4j")} | {ratio(row, by_key, "Failsafe")} |')
    if notes:
        lines.append("")
        lines.extend(f"{i + 1}. {note}" for i, note in enumerate(notes))
    lines.extend(targets(by_key))
    lines.extend(virtual_threads(throughput))
    return "\n".join(lines) + "\n"


# (what, numerator, denominator, bound, compare bytes too): numerator and denominator are
# (library, stack, threads); a target holds when numerator / denominator <= bound.
TARGETS = [
    ("a service's four wrappers within 1.2× their floor, 1 thread", ("Brace", "service", 1), ("Direct", "serviceFloor", 1), 1.2, True),
    ("a service's four wrappers ahead of Resilience4j, 1 thread", ("Brace", "service", 1), ("Resilience4j", "service", 1), 1.0, False),
    ("a service's four wrappers ahead of Resilience4j, 2 threads", ("Brace", "service", 2), ("Resilience4j", "service", 2), 1.0, False),
    ("four patterns within 1.2× the floor, 1 thread", ("Brace", "fourPatterns", 1), ("Direct", "floor", 1), 1.2, False),
    ("four patterns within 1.2× the floor, 2 threads", ("Brace", "fourPatterns", 2), ("Direct", "floor", 2), 1.2, False),
    ("four patterns ahead of Resilience4j, 1 thread", ("Brace", "fourPatterns", 1), ("Resilience4j", "fourPatterns", 1), 1.0, False),
    ("four patterns ahead of Resilience4j, 2 threads", ("Brace", "fourPatterns", 2), ("Resilience4j", "fourPatterns", 2), 1.0, False),
    ("four patterns ahead of Failsafe, 1 thread", ("Brace", "fourPatterns", 1), ("Failsafe", "fourPatterns", 1), 1.0, False),
    ("four patterns ahead of Failsafe, 2 threads", ("Brace", "fourPatterns", 2), ("Failsafe", "fourPatterns", 2), 1.0, False),
    ("six patterns within 1.5× four, 1 thread", ("Brace", "sixPatterns", 1), ("Brace", "fourPatterns", 1), 1.5, False),
    ("six patterns within 1.5× four, 2 threads", ("Brace", "sixPatterns", 2), ("Brace", "fourPatterns", 2), 1.5, False),
    ("timeout within 2× four patterns, 1 thread", ("Brace", "timeout", 1), ("Brace", "fourPatterns", 1), 2.0, False),
    ("timeout within 2× four patterns, 2 threads", ("Brace", "timeout", 2), ("Brace", "fourPatterns", 2), 2.0, False),
    ("rate breaker at 2 threads within 1.5× 1 thread", ("Brace", "breakerRate", 2), ("Brace", "breakerRate", 1), 1.5, False),
    ("async retry at most Resilience4j's, 1 thread", ("Brace", "retryAsync", 1), ("Resilience4j", "retryAsync", 1), 1.0, True),
    ("async retry at most Resilience4j's, 2 threads", ("Brace", "retryAsync", 2), ("Resilience4j", "retryAsync", 2), 1.0, True),
    ("async four patterns at most Resilience4j's, 1 thread", ("Brace", "fourPatternsAsync", 1), ("Resilience4j", "fourPatternsAsync", 1), 1.0, True),
    ("async four patterns at most Resilience4j's, 2 threads", ("Brace", "fourPatternsAsync", 2), ("Resilience4j", "fourPatternsAsync", 2), 1.0, True),
    ("Mono retry at most Resilience4j's Reactor operator, 1 thread", ("Brace", "monoRetry", 1), ("Resilience4j", "monoRetry", 1), 1.0, True),
    ("Mono retry at most Resilience4j's Reactor operator, 2 threads", ("Brace", "monoRetry", 2), ("Resilience4j", "monoRetry", 2), 1.0, True),
    ("Mono four patterns at most Resilience4j's Reactor operators, 1 thread", ("Brace", "fourPatternsMono", 1), ("Resilience4j", "fourPatternsMono", 1), 1.0, True),
    ("Mono four patterns at most Resilience4j's Reactor operators, 2 threads", ("Brace", "fourPatternsMono", 2), ("Resilience4j", "fourPatternsMono", 2), 1.0, True),
    ("a service's four Mono wrappers at most Resilience4j's Reactor operators, 1 thread", ("Brace", "serviceMono", 1), ("Resilience4j", "serviceMono", 1), 1.0, True),
    ("a service's four Mono wrappers at most Resilience4j's Reactor operators, 2 threads", ("Brace", "serviceMono", 2), ("Resilience4j", "serviceMono", 2), 1.0, True),
    ("suspend retry at most resilience4j-kotlin's, 1 thread", ("Brace", "suspendRetry", 1), ("Resilience4j", "suspendRetry", 1), 1.0, True),
    ("suspend retry at most resilience4j-kotlin's, 2 threads", ("Brace", "suspendRetry", 2), ("Resilience4j", "suspendRetry", 2), 1.0, True),
    ("suspend four patterns at most resilience4j-kotlin's, 1 thread", ("Brace", "fourPatternsSuspend", 1), ("Resilience4j", "fourPatternsSuspend", 1), 1.0, True),
    ("suspend four patterns at most resilience4j-kotlin's, 2 threads", ("Brace", "fourPatternsSuspend", 2), ("Resilience4j", "fourPatternsSuspend", 2), 1.0, True),
    ("a service's four suspend wrappers at most resilience4j-kotlin's, 1 thread", ("Brace", "serviceSuspend", 1), ("Resilience4j", "serviceSuspend", 1), 1.0, True),
    ("a service's four suspend wrappers at most resilience4j-kotlin's, 2 threads", ("Brace", "serviceSuspend", 2), ("Resilience4j", "serviceSuspend", 2), 1.0, True),
    ("a service's four Flow wrappers at most resilience4j-kotlin's Flow operators, 1 thread", ("Brace", "serviceFlow", 1), ("Resilience4j", "serviceFlow", 1), 1.0, True),
    ("a service's four Flow wrappers at most resilience4j-kotlin's Flow operators, 2 threads", ("Brace", "serviceFlow", 2), ("Resilience4j", "serviceFlow", 2), 1.0, True),
    ("Flow retry at most resilience4j-kotlin's Flow operator, 1 thread", ("Brace", "flowRetry", 1), ("Resilience4j", "flowRetry", 1), 1.0, True),
    ("Flow retry at most resilience4j-kotlin's Flow operator, 2 threads", ("Brace", "flowRetry", 2), ("Resilience4j", "flowRetry", 2), 1.0, True),
    ("Flow four patterns at most resilience4j-kotlin's Flow operators, 1 thread", ("Brace", "fourPatternsFlow", 1), ("Resilience4j", "fourPatternsFlow", 1), 1.0, True),
    ("Flow four patterns at most resilience4j-kotlin's Flow operators, 2 threads", ("Brace", "fourPatternsFlow", 2), ("Resilience4j", "fourPatternsFlow", 2), 1.0, True),
]

# A call fault injection does not touch pays nothing for it, switched on or off.
for _threads in (1, 2):
    for _stack, _how in (("fourPatternsChaosOff", "off"), ("fourPatternsChaosOnElsewhere", "on elsewhere")):
        TARGETS.append((f"four patterns, fault injection {_how}, within 1.1× four patterns, {_threads} thread{'s' if _threads > 1 else ''}",
                        ("Chaos", _stack, _threads), ("Brace", "fourPatterns", _threads), 1.1, True))

ZERO_BYTES = ["retry", "breakerClassic", "breakerRate", "limiter", "bulkhead", "timeout", "fourPatterns", "sixPatterns"]


def threads_text(threads):
    return f'{threads} thread{"s" if threads > 1 else ""}'


def metrics_targets():
    """With metrics bound, on each registry and at each thread count: the four-pattern happy path
    (logging off, and SLF4J at INFO) within 1.2× the metered floor, at most Resilience4j's time
    with its metrics, at 0 B/op; a failing call allocating no more than Resilience4j's.

    Each target: (what, numerator key, denominator key or None, time bound or None, bytes rule),
    the bytes rule being None, "at most" (numerator's bytes <= denominator's) or "zero"."""
    targets = []
    for registry in REGISTRIES:
        params = (("registry", registry),)
        for library in METRICS:
            where = registry + (", SLF4J at INFO" if library == "MetricsLogging" else "")
            for threads in (1, 2):
                brace = key(library, "braceFourPatterns", threads, params)
                targets.extend([
                    (f"four patterns with metrics ({where}) within 1.2× the metered floor, {threads_text(threads)}",
                     brace, key("Metrics", "meteredFloor", threads, params), 1.2, None),
                    (f"four patterns with metrics ({where}) at most Resilience4j's with metrics, {threads_text(threads)}",
                     brace, key(library, "resilience4jFourPatterns", threads, params), 1.0, None),
                    (f"four patterns with metrics ({where}) allocate nothing, {threads_text(threads)}",
                     brace, None, None, "zero"),
                ])
        for threads in (1, 2):
            targets.append(
                (f"a failing call with metrics ({registry}) allocates at most Resilience4j's, {threads_text(threads)}",
                 key("Metrics", "braceFailing", threads, params), key("Metrics", "resilience4jFailing", threads, params),
                 None, "at most"))
    return targets


def all_targets():
    targets = [(what, key(*top), key(*bottom), bound, "at most" if with_bytes else None)
               for what, top, bottom, bound, with_bytes in TARGETS]
    targets.extend((f'Brace.{stack} allocates nothing, {threads_text(threads)}', key("Brace", stack, threads), None, None, "zero")
                   for stack in ZERO_BYTES for threads in (1, 2))
    return targets + metrics_targets()


def targets(by_key):
    """The targets this run can judge, each with the ratio of medians it rests on."""
    lines = ["", "## Targets, read from this run", "",
             "| target | ratio of medians | bytes | met |", "|---|---:|---:|:---:|"]
    judged = 0
    for what, top, bottom, bound, bytes_rule in all_targets():
        a = by_key.get(top)
        b = by_key.get(bottom) if bottom is not None else None
        if a is None or (bottom is not None and b is None):
            continue
        if bytes_rule is not None and (a["bytes"] is None or (bytes_rule == "at most" and b["bytes"] is None)):
            continue
        met = True
        ratio_text = "—"
        if bound is not None:
            value = a["median"] / b["median"]
            ratio_text = f"{value:.2f}× (≤ {bound})"
            met = value <= bound
        bytes_text = "—"
        if bytes_rule == "at most":
            bytes_text = f'{a["bytes"]:.0f} vs {b["bytes"]:.0f}'
            met = met and a["bytes"] <= b["bytes"]
        elif bytes_rule == "zero":
            bytes_text = f'{a["bytes"]:.0f}'
            met = met and a["bytes"] < 1
        judged += 1
        lines.append(f'| {what} | {ratio_text} | {bytes_text} | {"yes" if met else "**no**"} |')
    return lines if judged else []


def virtual_threads(rows):
    """VirtualThreadBenchmarks: calls per second on virtual and on platform threads."""
    if not rows:
        return []
    lines = ["", "## 10,000 threads through one wrapper (VirtualThreadBenchmarks)", "",
             f'JDK {rows[0]["jdk"]}. Each operation: 10,000 threads, one call each (waiting bulkhead, '
             "waiting limiter, retry with backoff, both timeout modes, a 1 ms dependency).", "",
             "| threads | calls/s | median | B/call |", "|---|---:|---:|---:|"]
    by_kind = {}
    for row in sorted(rows, key=lambda r: r["params"].get("threads", "")):
        kind = row["params"].get("threads", "?")
        by_kind[kind] = row
        error = f' ± {row["error"]:,.0f}' if row["error"] is not None else ""
        bytes_per_call = f'{row["bytes"]:.0f}' if row["bytes"] is not None else "—"
        lines.append(f'| {kind} | {row["score"]:,.0f}{error} | {row["median"]:,.0f} | {bytes_per_call} |')
    if "virtual" in by_kind and "platform" in by_kind:
        lines.append("")
        lines.append(f'Virtual ÷ platform (medians): {by_kind["virtual"]["median"] / by_kind["platform"]["median"]:.2f}×.')
    return lines


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
