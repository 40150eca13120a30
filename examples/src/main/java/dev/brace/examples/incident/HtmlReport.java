package dev.brace.examples.incident;

import static dev.brace.examples.Svg.escape;
import static dev.brace.examples.Svg.line;
import static dev.brace.examples.Svg.rect;
import static dev.brace.examples.Svg.text;

import dev.brace.examples.incident.IncidentRun.Call;
import dev.brace.examples.incident.IncidentRun.Outcome;
import dev.brace.examples.incident.IncidentRun.RecordedEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the incident as one self-contained HTML page (inline SVG and CSS, nothing fetched): the
 * summary side by side, then one timeline per run with the breaker's state, what callers got per
 * quarter second, their latency and what the service received.
 *
 * <p>The breaker band and the fallback causes come from the registry's events; what callers got
 * and how long they waited come from the callers, since a success emits no event; what the service
 * received comes from its access log.
 */
public final class HtmlReport {
  private static final long BUCKET_MILLIS = 250;
  private static final int WIDTH = 1160;
  private static final int LEFT = 140;
  private static final int RIGHT = 20;
  private static final int PLOT = WIDTH - LEFT - RIGHT;

  /** Stacked series, bottom to top: label, colour, and which fallback causes (simple names) it takes. */
  private record Series(String label, String colour) {}

  private static final Series ANSWERED = new Series("answered by the service", "#3a9d5d");
  /** Drawn from the callers: a stale answer is a list this user was handed before. */
  private static final Series STALE = new Series("the user's earlier answer (stale)", "#9ccc65");
  private static final Series FALLBACK_OPEN = new Series("fallback: circuit open", "#4f7cc4");
  private static final Series FALLBACK_TIMEOUT = new Series("fallback: timeout", "#8a6bc4");
  private static final Series FALLBACK_UNAVAILABLE = new Series("fallback: 503 after retries", "#5bb3c9");
  private static final Series FALLBACK_OTHER = new Series("fallback: other failure", "#9bb0d6");
  private static final Series FALLBACK_REFUSED = new Series("fallback: bulkhead / rate limit", "#c9a227");
  private static final Series ERROR = new Series("error", "#d64541");
  private static final List<Series> STACK = List.of(ANSWERED, STALE, FALLBACK_OPEN, FALLBACK_TIMEOUT, FALLBACK_UNAVAILABLE,
      FALLBACK_OTHER, FALLBACK_REFUSED, ERROR);

  private static final Map<Phase, String> PHASE_COLOURS = Map.of(
      Phase.HEALTHY, "#e6f4ea", Phase.BROWNOUT, "#fdf0d5", Phase.LATENCY_SPIKE, "#fde2c8",
      Phase.HARD_DOWN, "#f9d6d5", Phase.RECOVERY, "#e6f4ea");

  private HtmlReport() {}

  /**
   * @param result both runs
   * @param file where to write the page
   * @throws IOException when it cannot be written
   */
  public static void write(Incident.Result result, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, render(result), StandardCharsets.UTF_8);
  }

  /**
   * @param result both runs
   * @return the page
   */
  public static String render(Incident.Result result) {
    RunStats without = result.without();
    RunStats with = result.with();
    long spanMillis = Math.max(result.script().total().toMillis(),
        Math.max(lastEnd(without.calls()), lastEnd(with.calls())));
    int buckets = (int) ((spanMillis + BUCKET_MILLIS - 1) / BUCKET_MILLIS);
    Scales scales = new Scales(
        Math.max(maxCallsPerBucket(without, buckets), maxCallsPerBucket(with, buckets)),
        Math.max(maxReceivedPerBucket(without, buckets), maxReceivedPerBucket(with, buckets)));

    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<title>Brace incident report</title>\n<style>\n")
        .append("body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;margin:24px auto;max-width:1180px;padding:0 12px}\n")
        .append("h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}p.lede{color:#555;margin:0 0 14px}\n")
        .append("table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 12px;text-align:right;border-bottom:1px solid #eee}\n")
        .append("td:first-child,th:first-child{text-align:left}th{background:#f5f5f5}tr.group td{font-weight:600;background:#fafafa}\n")
        .append(".better{color:#1e7b3c;font-weight:600}.worse{color:#b3261e;font-weight:600}\n")
        .append(".legend span{display:inline-block;margin:0 14px 4px 0}.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px;border-radius:2px}\n")
        .append(".note{color:#666;font-size:12.5px}svg text{font-family:system-ui,sans-serif}\n")
        .append(".cols{display:grid;grid-template-columns:auto 1fr;gap:40px;align-items:start}\n")
        .append("</style></head><body>\n");
    page.append("<h1>").append(result.gameDay() == null ? "Brace incident report" : "Brace game day report")
        .append("</h1>\n<p class=\"lede\">")
        .append(escape(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z"))))
        .append(result.gameDay() == null
            ? " · the same incident twice, at the same time, against two copies of the service · "
            : " · two healthy copies of the service; the same incident made twice, at the same time, by fault injection settings alone · ")
        .append(result.callers()).append(" concurrent callers per run · ")
        .append(phaseList(result.script())).append("</p>\n");
    if (result.gameDay() != null) {
      GameDayCaptions.settings(page, result.gameDay());
    }

    page.append("<div class=\"cols\"><div>\n<h2>Side by side</h2>\n");
    summary(page, without, with);
    page.append("</div><div>\n<h2>By phase (calls started in it)</h2>\n");
    byPhase(page, without, with);
    page.append("</div></div>\n");

    page.append("<h2>Timelines</h2>\n<div class=\"legend\">");
    for (Series series : STACK) {
      page.append("<span><i style=\"background:").append(series.colour()).append("\"></i>")
          .append(escape(series.label())).append("</span>");
    }
    page.append("<span><i style=\"background:#2f7d4a\"></i>breaker closed</span>")
        .append("<span><i style=\"background:#c0392b\"></i>open</span>")
        .append("<span><i style=\"background:#e0a030\"></i>half-open</span>")
        .append("<span><i style=\"background:#555\"></i>service: requests</span>")
        .append("<span><i style=\"background:#e67e22\"></i>of which retries</span></div>\n");
    page.append("<p class=\"note\">Per quarter second, by the time the caller had its answer. The breaker band and the fallback causes are drawn from the registry's events (<code>circuit.opened</code>, <code>circuit.half_open</code>, <code>circuit.closed</code>, <code>fallback.used</code>); answers, stale answers (a list the caller's user was handed before), errors and latency from the callers (a success emits no event); requests from the service's access log. Both runs share every scale.</p>\n");
    timeline(page, without, result.script(), result.gameDay(), buckets, scales);
    timeline(page, with, result.script(), result.gameDay(), buckets, scales);
    page.append("</body></html>\n");
    return page.toString();
  }

  private record Scales(long maxCalls, long maxReceived) {}

  // ---- tables ----

  private static void summary(StringBuilder page, RunStats without, RunStats with) {
    page.append("<table><tr><th></th><th>").append(escape(without.run().title())).append("</th><th>")
        .append(escape(with.run().title())).append("</th></tr>\n");
    group(page, "what callers saw");
    row(page, "calls", without.calls().size(), with.calls().size(), 0);
    row(page, "answered by the service", without.count(Outcome.ANSWERED), with.count(Outcome.ANSWERED), 0);
    row(page, "the user's earlier answer (stale)", without.count(Outcome.STALE), with.count(Outcome.STALE), 0);
    row(page, "fallback (editors' picks)", without.count(Outcome.FALLBACK), with.count(Outcome.FALLBACK), 0);
    row(page, "error", without.count(Outcome.ERROR), with.count(Outcome.ERROR), -1);
    row(page, "latency p50 (ms)", without.latencyMillis(0.5), with.latencyMillis(0.5));
    row(page, "latency p99 (ms)", without.latencyMillis(0.99), with.latencyMillis(0.99));
    group(page, "what the service received");
    row(page, "requests in all", without.received().size(), with.received().size(), 0);
    row(page, "during the brownout", without.receivedIn(Phase.BROWNOUT), with.receivedIn(Phase.BROWNOUT), 0);
    row(page, "&nbsp;&nbsp;of which retries", without.repeatsIn(Phase.BROWNOUT), with.repeatsIn(Phase.BROWNOUT), 0);
    row(page, "during the latency spike", without.receivedIn(Phase.LATENCY_SPIKE), with.receivedIn(Phase.LATENCY_SPIKE), -1);
    row(page, "during the hard down", without.receivedIn(Phase.HARD_DOWN), with.receivedIn(Phase.HARD_DOWN), -1);
    group(page, "what Brace did (registry events)");
    with.eventCounts().forEach((kind, count) ->
        page.append("<tr><td><code>").append(escape(kind)).append("</code></td><td>–</td><td>").append(count).append("</td></tr>\n"));
    page.append("</table>\n");
  }

  private static void byPhase(StringBuilder page, RunStats without, RunStats with) {
    page.append("<table><tr><th>phase</th><th colspan=\"2\">").append(escape(without.run().title()))
        .append("<br>ok · error</th><th colspan=\"4\">").append(escape(with.run().title()))
        .append("<br>ok · stale · fallback · error</th><th>service received<br>without · with</th></tr>\n");
    for (Phase phase : Phase.values()) {
      page.append("<tr><td>").append(phase.label()).append("</td>")
          .append(cell(without.count(phase, Outcome.ANSWERED))).append(cell(without.count(phase, Outcome.ERROR)))
          .append(cell(with.count(phase, Outcome.ANSWERED))).append(cell(with.count(phase, Outcome.STALE)))
          .append(cell(with.count(phase, Outcome.FALLBACK)))
          .append(cell(with.count(phase, Outcome.ERROR)))
          .append("<td>").append(without.receivedIn(phase)).append(" · ").append(with.receivedIn(phase)).append("</td></tr>\n");
    }
    page.append("</table>\n<p class=\"note\">Fallbacks by cause (<code>fallback.used</code>): ");
    List<String> causes = new ArrayList<>();
    with.fallbackCauses().forEach((cause, count) -> causes.add(escape(cause) + " " + count));
    page.append(causes.isEmpty() ? "none" : String.join(", ", causes)).append("</p>\n");
  }

  private static String cell(long value) {
    return "<td>" + value + "</td>";
  }

  private static void group(StringBuilder page, String title) {
    page.append("<tr class=\"group\"><td colspan=\"3\">").append(escape(title)).append("</td></tr>\n");
  }

  /** @param lowerIsBetter -1 when less is better, 0 when neither is */
  private static void row(StringBuilder page, String label, long without, long with, int lowerIsBetter) {
    cells(page, label, String.valueOf(without), String.valueOf(with), lowerIsBetter < 0 ? Long.compare(with, without) : 0);
  }

  /** A latency row: lower is better. */
  private static void row(StringBuilder page, String label, double without, double with) {
    String withoutText = SummaryTable.millis(without);
    String withText = SummaryTable.millis(with);
    cells(page, label, withoutText, withText, withText.equals(withoutText) ? 0 : Double.compare(with, without));
  }

  /** @param comparison below 0 when the Brace run did better, above when worse */
  private static void cells(StringBuilder page, String label, String without, String with, int comparison) {
    String withClass = comparison < 0 ? " class=\"better\"" : comparison > 0 ? " class=\"worse\"" : "";
    page.append("<tr><td>").append(label).append("</td><td>").append(without).append("</td><td").append(withClass)
        .append('>').append(with).append("</td></tr>\n");
  }

  // ---- timeline ----

  private static void timeline(StringBuilder page, RunStats stats, IncidentScript script, GameDay gameDay, int buckets,
      Scales scales) {
    int phaseTop = 22;
    int breakerTop = phaseTop + 26;
    int stackTop = breakerTop + 30;
    int stackHeight = 170;
    int latencyTop = stackTop + stackHeight + 26;
    int latencyHeight = 110;
    int receivedTop = latencyTop + latencyHeight + 26;
    int receivedHeight = 70;
    int axisTop = receivedTop + receivedHeight;
    int height = axisTop + 34;
    double spanMillis = (double) buckets * BUCKET_MILLIS;

    page.append("<h2>").append(escape(stats.run().title())).append("</h2>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\" role=\"img\" aria-label=\"")
        .append(escape(stats.run().title())).append(" timeline\">\n");

    // Phases: a tinted background behind every row, labelled on top.
    List<Duration> starts = script.phaseStarts();
    Phase[] phases = Phase.values();
    for (int i = 0; i < phases.length; i++) {
      double from = starts.get(i).toMillis();
      double to = i + 1 < phases.length ? starts.get(i + 1).toMillis() : spanMillis;
      double x = x(from, spanMillis);
      double w = x(to, spanMillis) - x;
      rect(page, x, phaseTop, w, axisTop - phaseTop, PHASE_COLOURS.get(phases[i]), null);
      text(page, x + w / 2, phaseTop + 15, phases[i].label(), "middle", 12.5, "#333", true);
    }
    label(page, "phase", phaseTop + 15);

    // Breaker state, from circuit.* events.
    label(page, "breaker", breakerTop + 13);
    if (stats.run().breakerState().isEmpty()) {
      String why = stats.run().withBrace() ? "circuit breaker switched off by configuration" : "no circuit breaker";
      rect(page, LEFT, breakerTop, PLOT, 18, "#d9d9d9", null);
      text(page, LEFT + PLOT / 2.0, breakerTop + 13, why, "middle", 11.5, "#555", false);
    } else {
      breakerBand(page, stats.events(), breakerTop, spanMillis);
    }

    // What callers got, stacked per bucket.
    long[][] stack = stackCounts(stats, buckets);
    label(page, "calls / 0.25 s", stackTop + 12);
    gridLines(page, stackTop, stackHeight, scales.maxCalls(), false);
    double barWidth = (double) PLOT / buckets;
    for (int b = 0; b < buckets; b++) {
      double y = stackTop + stackHeight;
      for (int s = 0; s < STACK.size(); s++) {
        long n = stack[b][s];
        if (n == 0) {
          continue;
        }
        double h = stackHeight * (double) n / scales.maxCalls();
        y -= h;
        rect(page, LEFT + b * barWidth + 1, y, barWidth - 2, h, STACK.get(s).colour(),
            STACK.get(s).label() + ": " + n + " at " + seconds(b * BUCKET_MILLIS));
      }
    }

    // Latency, log scale: 1 ms to 2 s.
    label(page, "latency (ms)", latencyTop + 12);
    latency(page, stats.calls(), buckets, latencyTop, latencyHeight);

    // What the service received.
    label(page, "service", receivedTop + 12);
    label(page, "requests / 0.25 s", receivedTop + 26);
    gridLines(page, receivedTop, receivedHeight, scales.maxReceived(), true);
    long[] received = new long[buckets];
    long[] repeats = new long[buckets];
    for (RecsService.Request request : stats.received()) {
      int b = bucket(request.atMillis(), buckets);
      received[b]++;
      if (request.repeat()) {
        repeats[b]++;
      }
    }
    for (int b = 0; b < buckets; b++) {
      double h = receivedHeight * (double) received[b] / scales.maxReceived();
      double hr = receivedHeight * (double) repeats[b] / scales.maxReceived();
      rect(page, LEFT + b * barWidth + 1, receivedTop + receivedHeight - h, barWidth - 2, h - hr, "#555",
          received[b] + " requests at " + seconds(b * BUCKET_MILLIS));
      if (repeats[b] > 0) {
        rect(page, LEFT + b * barWidth + 1, receivedTop + receivedHeight - hr, barWidth - 2, hr, "#e67e22",
            repeats[b] + " retries at " + seconds(b * BUCKET_MILLIS));
      }
    }

    // Time axis.
    line(page, LEFT, axisTop, LEFT + PLOT, axisTop, "#999", 1);
    for (long t = 0; t <= spanMillis; t += 1000) {
      double x = x(t, spanMillis);
      line(page, x, axisTop, x, axisTop + 4, "#999", 1);
      if (t % 2000 == 0) {
        text(page, x, axisTop + 17, (t / 1000) + " s", "middle", 11, "#555", false);
      }
    }
    page.append("</svg>\n<p class=\"note\">").append(caption(stats, script, gameDay)).append("</p>\n");
  }

  /** What to look at in a run's timeline, with its numbers. */
  private static String caption(RunStats stats, IncidentScript script, GameDay gameDay) {
    if (gameDay != null) {
      return GameDayCaptions.caption(stats, script);
    }
    if (!stats.run().withBrace()) {
      return String.format(Locale.ROOT, "Every 503 and 500 reaches a caller as an error (%d in all). In the latency spike "
          + "each caller waits for the HTTP client's own %d ms timeout; in the hard down the callers keep the failing "
          + "service busy with %d requests.", stats.count(Outcome.ERROR),
          dev.brace.examples.HttpRecsClient.REQUEST_TIMEOUT.toMillis(), stats.receivedIn(Phase.HARD_DOWN));
    }
    List<Duration> starts = script.phaseStarts();
    long spike = starts.get(Phase.LATENCY_SPIKE.ordinal()).toMillis();
    long recovery = starts.get(Phase.RECOVERY.ordinal()).toMillis();
    StringBuilder caption = new StringBuilder(String.format(Locale.ROOT,
        "In the brownout <code>@Retry</code> retried %d requests, waiting for the 503's <code>Retry-After</code> "
            + "(up to <code>maxRetryAfter</code>): callers wait longer, get answers instead of errors, and the "
            + "overloaded service receives fewer requests.", stats.repeatsIn(Phase.BROWNOUT)));
    firstAfter(stats.events(), "circuit.opened", spike).ifPresent(at -> caption.append(String.format(Locale.ROOT,
        " The breaker opened %.2f s into the latency spike", (at - spike) / 1000.0)));
    firstAfter(stats.events(), "circuit.closed", recovery).ifPresent(at -> caption.append(String.format(Locale.ROOT,
        " and closed %.2f s into the recovery, after a successful probe", (at - recovery) / 1000.0)));
    caption.append(String.format(Locale.ROOT, "; while it was open %d calls were refused at once, and the service "
        + "received %d requests during the hard down. There, %d callers got their own earlier recommendations back "
        + "(<code>@StaleIfError</code>, <code>stale.served</code>) and only %d, users seen for the first time, "
        + "the editors' picks.",
        stats.events("circuit.rejected"), stats.receivedIn(Phase.HARD_DOWN),
        stats.count(Phase.HARD_DOWN, Outcome.STALE), stats.count(Phase.HARD_DOWN, Outcome.FALLBACK)));
    return caption.toString();
  }

  private static java.util.OptionalLong firstAfter(List<RecordedEvent> events, String kind, long fromMillis) {
    return events.stream().filter(event -> event.kind().equals(kind) && event.atMillis() >= fromMillis)
        .mapToLong(RecordedEvent::atMillis).min();
  }

  private static void breakerBand(StringBuilder page, List<RecordedEvent> events, int top, double spanMillis) {
    String state = "closed";
    double from = 0;
    List<RecordedEvent> changes = events.stream()
        .filter(event -> event.kind().equals("circuit.opened") || event.kind().equals("circuit.half_open")
            || event.kind().equals("circuit.closed"))
        .sorted((a, b) -> Long.compare(a.atMillis(), b.atMillis()))
        .toList();
    for (RecordedEvent change : changes) {
      double at = Math.max(0, Math.min(spanMillis, change.atMillis()));
      breakerSegment(page, state, from, at, top, spanMillis);
      state = change.kind().substring("circuit.".length());
      from = at;
    }
    breakerSegment(page, state, from, spanMillis, top, spanMillis);
    for (RecordedEvent change : changes) {
      if (change.kind().equals("circuit.opened")) {
        double x = x(change.atMillis(), spanMillis);
        page.append(String.format(Locale.ROOT,
            "<path d=\"M%.1f %d l-4 -6 h8 z\" fill=\"#c0392b\"><title>circuit.opened at %s %s</title></path>\n",
            x, top, seconds(change.atMillis()), escape(change.attributes().toString())));
      }
    }
  }

  private static void breakerSegment(StringBuilder page, String state, double fromMillis, double toMillis, int top,
      double spanMillis) {
    if (toMillis <= fromMillis) {
      return;
    }
    String colour = switch (state) {
      case "opened" -> "#c0392b";
      case "half_open" -> "#e0a030";
      default -> "#2f7d4a";
    };
    String name = switch (state) {
      case "opened" -> "open";
      case "half_open" -> "half-open";
      default -> "closed";
    };
    double x = x(fromMillis, spanMillis);
    double w = Math.max(1, x(toMillis, spanMillis) - x);
    rect(page, x, top, w, 18, colour, "breaker " + name + " from " + seconds((long) fromMillis) + " to "
        + seconds((long) toMillis));
    if (w > 44) {
      text(page, x + w / 2, top + 13, name, "middle", 11, "#fff", true);
    }
  }

  private static long[][] stackCounts(RunStats stats, int buckets) {
    long[][] counts = new long[buckets][STACK.size()];
    for (Call call : stats.calls()) {
      if (call.outcome() == Outcome.ANSWERED) {
        counts[bucket(call.endMillis(), buckets)][STACK.indexOf(ANSWERED)]++;
      } else if (call.outcome() == Outcome.STALE) {
        counts[bucket(call.endMillis(), buckets)][STACK.indexOf(STALE)]++;
      } else if (call.outcome() == Outcome.ERROR) {
        counts[bucket(call.endMillis(), buckets)][STACK.indexOf(ERROR)]++;
      }
    }
    for (RecordedEvent event : stats.events()) {
      if (event.kind().equals("fallback.used")) {
        counts[bucket(event.atMillis(), buckets)][STACK.indexOf(fallbackSeries(RunStats.causeOf(event)))]++;
      }
    }
    return counts;
  }

  private static Series fallbackSeries(String cause) {
    return switch (cause) {
      case "CircuitOpenException" -> FALLBACK_OPEN;
      case "TimeoutExceededException" -> FALLBACK_TIMEOUT;
      case "ServiceUnavailableException" -> FALLBACK_UNAVAILABLE;
      case "BulkheadFullException", "RateLimitedException" -> FALLBACK_REFUSED;
      default -> FALLBACK_OTHER;
    };
  }

  private static void latency(StringBuilder page, List<Call> calls, int buckets, int top, int height) {
    double[] ticks = {0.1, 1, 10, 100, 1000};
    for (double tick : ticks) {
      double y = latencyY(tick, top, height);
      line(page, LEFT, y, LEFT + PLOT, y, "#ccc", 0.7);
      String label = tick >= 1000 ? "1 s" : tick < 1 ? "0.1" : String.valueOf((long) tick);
      text(page, LEFT - 6, y + 4, label, "end", 10.5, "#777", false);
    }
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("p99", "#222");
    lines.put("p50", "#3a7bd5");
    double barWidth = (double) PLOT / buckets;
    for (Map.Entry<String, String> series : lines.entrySet()) {
      double quantile = series.getKey().equals("p99") ? 0.99 : 0.5;
      StringBuilder path = new StringBuilder();
      StringBuilder dots = new StringBuilder();
      boolean gap = true;  // a quarter second in which no call ended breaks the line
      for (int b = 0; b < buckets; b++) {
        final int bucket = b;
        double millis = RunStats.quantileMillis(calls, call -> bucket(call.endMillis(), buckets) == bucket, quantile);
        if (millis <= 0) {
          gap = true;
          continue;
        }
        double x = LEFT + (b + 0.5) * barWidth;
        double y = latencyY(millis, top, height);
        path.append(gap ? " M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
        gap = false;
        dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"><title>%s %s ms at %s</title></circle>\n",
            x, y, series.getValue(), series.getKey(), SummaryTable.millis(millis), seconds(b * BUCKET_MILLIS)));
      }
      page.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(series.getValue())
          .append("\" stroke-width=\"1.6\"/>\n").append(dots);
    }
    text(page, LEFT + PLOT - 4, top + 12, "— p99", "end", 11, "#222", true);
    text(page, LEFT + PLOT - 48, top + 12, "— p50", "end", 11, "#3a7bd5", true);
  }

  /** Log scale from 0.1 ms (a fallback served at once) to 2 s. */
  private static double latencyY(double millis, int top, int height) {
    double clamped = Math.max(0.1, Math.min(2000, millis));
    return top + height - height * (Math.log10(clamped) + 1) / (Math.log10(2000) + 1);
  }

  private static void gridLines(StringBuilder page, int top, int height, long max, boolean small) {
    long step = niceStep(max, small ? 2 : 4);
    for (long v = step; v <= max; v += step) {
      double y = top + height - height * (double) v / max;
      line(page, LEFT, y, LEFT + PLOT, y, "#ccc", 0.7);
      text(page, LEFT - 6, y + 4, String.valueOf(v), "end", 10.5, "#777", false);
    }
    line(page, LEFT, top + height, LEFT + PLOT, top + height, "#999", 1);
  }

  private static long niceStep(long max, int lines) {
    long raw = Math.max(1, max / lines);
    long magnitude = (long) Math.pow(10, Math.floor(Math.log10(raw)));
    for (long factor : new long[] {1, 2, 5, 10}) {
      if (factor * magnitude >= raw) {
        return factor * magnitude;
      }
    }
    return 10 * magnitude;
  }

  // ---- small helpers ----

  private static long lastEnd(List<Call> calls) {
    return calls.stream().mapToLong(Call::endMillis).max().orElse(0);
  }

  private static long maxCallsPerBucket(RunStats stats, int buckets) {
    long[][] counts = stackCounts(stats, buckets);
    long max = 1;
    for (long[] bucket : counts) {
      long sum = 0;
      for (long n : bucket) {
        sum += n;
      }
      max = Math.max(max, sum);
    }
    return max;
  }

  private static long maxReceivedPerBucket(RunStats stats, int buckets) {
    long[] counts = new long[buckets];
    stats.received().forEach(request -> counts[bucket(request.atMillis(), buckets)]++);
    long max = 1;
    for (long n : counts) {
      max = Math.max(max, n);
    }
    return max;
  }

  private static int bucket(long millis, int buckets) {
    return (int) Math.max(0, Math.min(buckets - 1, millis / BUCKET_MILLIS));
  }

  private static double x(double millis, double spanMillis) {
    return LEFT + PLOT * millis / spanMillis;
  }

  private static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
  }

  private static String phaseList(IncidentScript script) {
    List<String> parts = new ArrayList<>();
    List<Duration> starts = script.phaseStarts();
    Phase[] phases = Phase.values();
    for (int i = 0; i < phases.length; i++) {
      long end = i + 1 < phases.length ? starts.get(i + 1).toMillis() : script.total().toMillis();
      parts.add(phases[i].label() + " " + seconds(end - starts.get(i).toMillis()).replace(".00", ""));
    }
    return escape(String.join(" → ", parts));
  }

  private static void label(StringBuilder page, String text, double y) {
    text(page, 8, y, text, "start", 11.5, "#444", true);
  }
}
