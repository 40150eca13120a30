package dev.brace.examples.capacity;

import dev.brace.examples.capacity.CapacityScenario.Phase;
import dev.brace.examples.capacity.CapacityScenario.Result;
import dev.brace.examples.capacity.CapacityScenario.Run;
import dev.brace.examples.capacity.Timeline.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's numbers: a summary per run and phase ({@link #summary}: goodput, latency of served
 * calls, shed calls, timeouts and the mean limit), and one self-contained HTML
 * page (inline SVG, nothing fetched) with, per run, the limit and the calls in flight, the latency
 * of served calls and the goodput over time; and for the quota runs the rate, the 429s and what
 * was served.
 */
public final class CapacityReport {
  private static final int WIDTH = 1180;
  private static final int HEIGHT = 150;
  private static final int LEFT = 60;
  private static final int RIGHT = 200;
  private static final String[] PHASE_COLOURS = {"#e6f4ea", "#f9d6d5", "#e6f4ea"};

  /** One line of a chart. */
  private record Line(String label, String colour, double[] values, boolean dashed) {}

  private CapacityReport() {}

  /**
   * @param result both parts of the demo
   * @return a plain-text table: per run and phase, goodput, latency, shed calls and timeouts; per
   *     quota run, what was served and the 429s
   */
  public static String summary(Result result) {
    StringBuilder text = new StringBuilder();
    text.append(String.format(Locale.ROOT, "%-36s %-10s %9s %8s %8s %9s %9s %7s%n",
        "capacity run", "phase", "served/s", "p50 ms", "p90 ms", "shed/s", "timeouts", "limit"));
    for (Run run : result.capacityRuns()) {
      int from = 0;
      for (Phase phase : result.phases()) {
        int to = from + (int) (phase.length().toMillis() / Timeline.BUCKET_MILLIS);
        double seconds = (to - from) * Timeline.BUCKET_MILLIS / 1000.0;
        Timeline t = run.timeline();
        int served = t.total(Outcome.SERVED_DEFAULT, from, to) + t.total(Outcome.SERVED_SHEDDABLE, from, to);
        double limit = 0;
        for (int b = from; b < to; b++) {
          limit += t.gaugeA(b) / (to - from);
        }
        text.append(String.format(Locale.ROOT, "%-36s %-10s %9.1f %8d %8d %9.1f %9d %7.1f%n",
            run.label(), phase.name(), served / seconds, t.latencyPercentile(from, to, 50),
            t.latencyPercentile(from, to, 90), t.total(Outcome.REFUSED, from, to) / seconds,
            t.total(Outcome.TIMED_OUT, from, to), limit));
        from = to;
      }
    }
    text.append(String.format(Locale.ROOT, "%n%-36s %9s %9s %9s%n", "quota run", "served/s", "429/s", "last rate"));
    for (Run run : result.quotaRuns()) {
      Timeline t = run.timeline();
      double seconds = t.buckets() * Timeline.BUCKET_MILLIS / 1000.0;
      text.append(String.format(Locale.ROOT, "%-36s %9.1f %9.1f %9.1f%n", run.label(),
          t.total(Outcome.SERVED_DEFAULT, 0, t.buckets()) / seconds,
          t.total(Outcome.THROTTLED, 0, t.buckets()) / seconds, t.gaugeA(t.buckets() - 1)));
    }
    return text.toString();
  }

  /**
   * @param result both parts
   * @param file where to write the page
   * @throws IOException when it cannot be written
   */
  public static void write(Result result, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, render(result), StandardCharsets.UTF_8);
  }

  /** @return the page */
  public static String render(Result result) {
    StringBuilder html = new StringBuilder();
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Brace: adaptive limits</title><style>")
        .append("body{font-family:system-ui,sans-serif;margin:24px;color:#222}h2{margin-top:32px}")
        .append("pre{background:#f6f6f6;padding:12px;font-size:13px}svg{display:block;margin:6px 0 14px}")
        .append(".note{color:#555;max-width:1000px}</style></head><body>")
        .append("<h1>Adaptive concurrency limits and load shedding</h1>")
        .append("<p class=\"note\">The catalog service serves at most 40 requests at once (each in ")
        .append(CatalogService.SERVICE_TIME.toMillis())
        .append(" ms), then only 10 (the red band), then 40 again; beyond its capacity requests queue and latency grows. ")
        .append("Each run has its own copy of the service and the same demand: 18 calls a second, arriving at random, half of them for sheddable suggestions. ")
        .append("The client's @Timeout is 5 s.</p><pre>").append(escape(summary(result))).append("</pre>");
    int capacityBuckets = result.capacityRuns().get(0).timeline().buckets();
    double[] capacity = new double[capacityBuckets];
    for (int b = 0; b < capacityBuckets; b++) {
      capacity[b] = CapacityScenario.capacityAt(result.phases(), b * Timeline.BUCKET_MILLIS);
    }
    double maxGoodput = 0;
    double maxLatency = 0;
    for (Run run : result.capacityRuns()) {
      maxGoodput = Math.max(maxGoodput, max(goodput(run.timeline())));
      maxLatency = Math.max(maxLatency, max(latency(run.timeline(), 90)));
    }
    for (Run run : result.capacityRuns()) {
      Timeline t = run.timeline();
      html.append("<h2>").append(escape(run.label())).append("</h2>");
      html.append(chart("limit and calls in flight", List.of(
          new Line("limit", "#1f5fbf", gauge(t, true), false),
          new Line("in flight", "#e08a00", gauge(t, false), false),
          new Line("service capacity", "#777", capacity, true)), 65, result.phases()));
      html.append(chart("latency of served calls, ms", List.of(
          new Line("p50", "#3a9d5d", latency(t, 50), false),
          new Line("p90", "#d64541", latency(t, 90), false)), maxLatency, result.phases()));
      html.append(chart("calls per second", List.of(
          new Line("served (goodput)", "#3a9d5d", goodput(t), false),
          new Line("served pages (DEFAULT)", "#1f5fbf", perSecond(t, Outcome.SERVED_DEFAULT), true),
          new Line("shed by the bulkhead", "#c9a227", perSecond(t, Outcome.REFUSED), false),
          new Line("timed out", "#d64541", perSecond(t, Outcome.TIMED_OUT), false)), maxGoodput, result.phases()));
    }
    html.append("<h2>Quota: 50 calls a second, 429 with Retry-After above it</h2>")
        .append("<p class=\"note\">Both limiters are set to 200 a second. The adaptive one halves its rate on every 429, ")
        .append("admits nothing until the Retry-After has passed, and adds 0.5 a second back on every success.</p>");
    List<Phase> quotaPhases = List.of(new Phase("quota", 40, java.time.Duration.ofSeconds(result.quotaSeconds())));
    int quotaBuckets = result.quotaRuns().get(0).timeline().buckets();
    double[] quota = new double[quotaBuckets];
    java.util.Arrays.fill(quota, CatalogService.QUOTA);
    for (Run run : result.quotaRuns()) {
      Timeline t = run.timeline();
      html.append("<h2>").append(escape(run.label())).append("</h2>");
      html.append(chart("rate, calls per second", List.of(
          new Line("limiter's rate", "#1f5fbf", gauge(t, true), false),
          new Line("served", "#3a9d5d", perSecond(t, Outcome.SERVED_DEFAULT), false),
          new Line("429 Too Many Requests", "#d64541", perSecond(t, Outcome.THROTTLED), false),
          new Line("quota", "#777", quota, true)), 210, quotaPhases));
    }
    return html.append("</body></html>").toString();
  }

  private static double[] gauge(Timeline t, boolean first) {
    double[] values = new double[t.buckets()];
    for (int b = 0; b < values.length; b++) {
      values[b] = first ? t.gaugeA(b) : t.gaugeB(b);
    }
    return values;
  }

  private static double[] latency(Timeline t, double percentile) {
    double[] values = new double[t.buckets()];
    for (int b = 0; b < values.length; b++) {
      long value = t.latencyPercentile(b, b + 1, percentile);
      values[b] = value < 0 ? Double.NaN : value;
    }
    return values;
  }

  private static double[] perSecond(Timeline t, Outcome outcome) {
    double[] values = new double[t.buckets()];
    for (int b = 0; b < values.length; b++) {
      values[b] = t.count(outcome, b) * 1000.0 / Timeline.BUCKET_MILLIS;
    }
    return values;
  }

  private static double[] goodput(Timeline t) {
    double[] served = perSecond(t, Outcome.SERVED_DEFAULT);
    double[] sheddable = perSecond(t, Outcome.SERVED_SHEDDABLE);
    for (int b = 0; b < served.length; b++) {
      served[b] += sheddable[b];
    }
    return served;
  }

  private static double max(double[] values) {
    double max = 1;
    for (double value : values) {
      if (!Double.isNaN(value)) {
        max = Math.max(max, value);
      }
    }
    return max;
  }

  private static String chart(String title, List<Line> lines, double yMax, List<Phase> phases) {
    int buckets = lines.get(0).values().length;
    double top = niceCeiling(yMax);
    int plot = WIDTH - LEFT - RIGHT;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"11\">",
        WIDTH, HEIGHT + 30));
    double x = LEFT;
    int index = 0;
    for (Phase phase : phases) {
      double w = plot * phase.length().toMillis() / (double) (buckets * Timeline.BUCKET_MILLIS);
      svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"15\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
          x, w, HEIGHT, phases.size() == 1 ? "#f4f6fb" : PHASE_COLOURS[index % PHASE_COLOURS.length]));
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"27\" fill=\"#555\">%s</text>", x + 4, escape(phase.name())));
      x += w;
      index++;
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"11\" font-weight=\"bold\">%s</text>", LEFT, escape(title)));
    for (int i = 0; i <= 4; i++) {
      double value = top * i / 4;
      double y = 15 + HEIGHT - HEIGHT * value / top;
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT, LEFT + plot, y, y));
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>",
          LEFT - 6, y + 4, value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value)));
    }
    for (int s = 0; s <= buckets * Timeline.BUCKET_MILLIS / 1000; s += 4) {
      double sx = LEFT + plot * s * 1000.0 / (buckets * Timeline.BUCKET_MILLIS);
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d s</text>", sx, HEIGHT + 28, s));
    }
    int legend = 0;
    for (Line line : lines) {
      List<String> points = new ArrayList<>();
      StringBuilder path = new StringBuilder();
      for (int b = 0; b < buckets; b++) {
        double value = line.values()[b];
        if (Double.isNaN(value)) {
          if (!points.isEmpty()) {
            path.append(polyline(points, line));
            points.clear();
          }
          continue;
        }
        double px = LEFT + plot * (b + 0.5) / buckets;
        double py = 15 + HEIGHT - HEIGHT * Math.min(value, top) / top;
        points.add(String.format(Locale.ROOT, "%.1f,%.1f", px, py));
      }
      path.append(polyline(points, line));
      svg.append(path);
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
          LEFT + plot + 10, LEFT + plot + 28, 30 + legend * 16, 30 + legend * 16, line.colour(), line.dashed() ? " stroke-dasharray=\"4 3\"" : ""));
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>", LEFT + plot + 32, 34 + legend * 16, escape(line.label())));
      legend++;
    }
    return svg.append("</svg>").toString();
  }

  private static String polyline(List<String> points, Line line) {
    if (points.isEmpty()) {
      return "";
    }
    return "<polyline fill=\"none\" stroke=\"" + line.colour() + "\" stroke-width=\"1.6\""
        + (line.dashed() ? " stroke-dasharray=\"4 3\"" : "") + " points=\"" + String.join(" ", points) + "\"/>";
  }

  private static double niceCeiling(double value) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(1, value))));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= value) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
