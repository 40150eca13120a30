package dev.brace.examples.metrics;

import dev.brace.examples.incident.Incident;
import dev.brace.examples.incident.IncidentScript;
import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.Registry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Draws what the Grafana dashboard shows, from a real run: the incident demo with {@code
 * BraceMetrics} bound to a {@link PrometheusMeterRegistry}, scraped every quarter second. Each
 * panel computes what its dashboard query computes (rates of counters, {@code histogram_quantile}
 * over bucket increases, wait sum over wait count) from the scraped text, and the page is drawn
 * as SVG for a headless browser to photograph:
 *
 * <pre>
 * java -cp … dev.brace.examples.metrics.DashboardPicture examples/target/dashboard.html
 * chromium --headless --screenshot=docs/images/dashboard.png --window-size=1400,980 file://…/dashboard.html
 * </pre>
 */
public final class DashboardPicture {
  private static final String CALL = "RecsClient.recommendations";
  private static final long SAMPLE_MILLIS = 250;

  private record Sampled(double seconds, Scrape scrape) {}

  private DashboardPicture() {}

  /**
   * @param args the HTML file to write
   * @throws Exception when the demo's services cannot start or the file cannot be written
   */
  public static void main(String[] args) throws Exception {
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of())
        .retry(CALL, retry -> retry.budget("recs-retries"))
        .build();
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    prometheus.config().meterFilter(PrometheusScrapeTest.histogramsFor("brace.calls"));
    IncidentScript script = IncidentScript.of(2_000, 3_000, 3_000, 3_500, 4_000);
    List<Sampled> samples = new CopyOnWriteArrayList<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    try (AutoCloseable binding = BraceMetrics.bind(registry, prometheus)) {
      long start = System.nanoTime();
      sampler.scheduleAtFixedRate(
          () -> samples.add(new Sampled((System.nanoTime() - start) / 1e9, Scrape.parse(prometheus.scrape()))),
          0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
      Incident.run(script, 8, registry, null);
    } finally {
      sampler.shutdown();
      sampler.awaitTermination(5, TimeUnit.SECONDS);
    }
    Path out = Path.of(args.length > 0 ? args[0] : "examples/target/dashboard.html");
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, page(fromTheFirstCall(samples), script));
    System.out.println("wrote " + out.toAbsolutePath() + " from " + samples.size() + " scrapes");
  }

  /**
   * The demo starts its services and warms its clients up before the script's clock starts; the
   * wrapper's first call marks that start, so the time axis begins with the scrape before it.
   */
  private static List<Sampled> fromTheFirstCall(List<Sampled> samples) {
    int first = 0;
    while (first < samples.size() && sum(samples.get(first).scrape(), "brace_calls_seconds_count") == 0) {
      first++;
    }
    Sampled before = samples.get(Math.max(0, first - 1));
    return samples.subList(Math.max(0, first - 1), samples.size()).stream()
        .map(sample -> new Sampled(sample.seconds() - before.seconds(), sample.scrape()))
        .toList();
  }

  // ---- what the panels compute from two consecutive scrapes ----

  private static double sum(Scrape scrape, String metric, String... labels) {
    return scrape.samples(metric).stream().filter(sample -> sample.has(labels)).mapToDouble(Scrape.Sample::value).sum();
  }

  /** {@code rate(metric{labels}[…])}: the increase over the interval, per second. */
  private static ToDoubleFunction<Sampled[]> rate(String metric, String... labels) {
    return pair -> Math.max(0, sum(pair[1].scrape(), metric, labels) - sum(pair[0].scrape(), metric, labels))
        / (pair[1].seconds() - pair[0].seconds());
  }

  /** {@code rate(sum) / rate(count)}: the mean of what was recorded in the interval, in ms; NaN when nothing was. */
  private static ToDoubleFunction<Sampled[]> mean(String base, String... labels) {
    return pair -> {
      double count = sum(pair[1].scrape(), base + "_count", labels) - sum(pair[0].scrape(), base + "_count", labels);
      double total = sum(pair[1].scrape(), base + "_sum", labels) - sum(pair[0].scrape(), base + "_sum", labels);
      return count <= 0 ? Double.NaN : 1000 * total / count;
    };
  }

  /** {@code histogram_quantile(q, sum by (le) (rate(brace_calls_seconds_bucket{call}[…])))}, in ms. */
  private static ToDoubleFunction<Sampled[]> quantile(double q) {
    return pair -> {
      TreeMap<Double, Double> increase = new TreeMap<>();
      for (int side = 0; side < 2; side++) {
        double sign = side == 0 ? -1 : 1;
        for (Scrape.Sample bucket : pair[side].scrape().samples("brace_calls_seconds_bucket")) {
          if (bucket.has("call", CALL)) {
            double le = Double.parseDouble(bucket.label("le").replace("+Inf", "Infinity"));
            increase.merge(le, sign * bucket.value(), Double::sum);
          }
        }
      }
      double total = increase.isEmpty() ? 0 : increase.lastEntry().getValue();
      if (total <= 0) {
        return Double.NaN;
      }
      double rank = q * total;
      double lowerBound = 0;
      double lowerCount = 0;
      for (Map.Entry<Double, Double> bucket : increase.entrySet()) {
        if (bucket.getValue() >= rank) {
          if (bucket.getKey().isInfinite()) {
            // Only a scrape read while a sample was being recorded puts a quantile here (the +Inf
            // line already counts it, the finite ones do not yet): Prometheus would draw the top
            // bucket's bound, 30 s; the picture leaves a gap instead.
            return Double.NaN;
          }
          double share = (rank - lowerCount) / Math.max(1e-9, bucket.getValue() - lowerCount);
          return 1000 * (lowerBound + (bucket.getKey() - lowerBound) * share);
        }
        lowerBound = bucket.getKey();
        lowerCount = bucket.getValue();
      }
      return Double.NaN;
    };
  }

  private static ToDoubleFunction<Sampled[]> gauge(String metric, String... labels) {
    return pair -> {
      List<Scrape.Sample> found = pair[1].scrape().samples(metric).stream().filter(sample -> sample.has(labels)).toList();
      return found.isEmpty() ? Double.NaN : found.get(0).value();
    };
  }

  // ---- drawing ----

  private static final int WIDTH = 660;
  private static final int HEIGHT = 190;
  private static final int LEFT = 78;
  private static final int TOP = 10;
  private static final int BOTTOM = 22;

  private static String page(List<Sampled> samples, IncidentScript script) {
    List<Sampled[]> pairs = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      pairs.add(new Sampled[] {samples.get(i - 1), samples.get(i)});
    }
    double end = samples.get(samples.size() - 1).seconds();
    StringBuilder html = new StringBuilder();
    html.append("<!doctype html><html><head><meta charset='utf-8'><style>")
        .append("body{margin:0;padding:14px;background:#111217;color:#ccccdc;font:13px Inter,Helvetica,Arial,sans-serif}")
        .append("h1{font-size:17px;margin:0 0 4px 4px;font-weight:500}p.sub{margin:0 0 10px 4px;color:#8e8e9e;font-size:12px}")
        .append(".grid{display:grid;grid-template-columns:repeat(2,680px);gap:10px}")
        .append(".panel{background:#181b1f;border:1px solid #2c3235;border-radius:3px;padding:6px 8px}")
        .append(".t{font-weight:500;margin:2px 0 2px 2px}.q{color:#6e7180;font:11px monospace;margin:0 0 2px 2px}")
        .append(".legend span{margin-right:12px;font-size:11px}.legend i{display:inline-block;width:10px;height:3px;margin-right:4px;vertical-align:middle}")
        .append("</style></head><body>")
        .append("<h1>Brace resilience</h1><p class='sub'>docs/grafana/brace-dashboard.json, drawn from ")
        .append(samples.size()).append(" Prometheus scrapes, a quarter second apart, of the incident demo (8 callers, ")
        .append(String.format(Locale.ROOT, "%.1f", end)).append(" s): healthy, brownout, latency spike, hard down, recovery</p>")
        .append("<div class='grid'>");
    Map<String, ToDoubleFunction<Sampled[]>> outcomes = new LinkedHashMap<>();
    String[] colors = {"#73bf69", "#5794f2", "#ff9830", "#f2495c", "#b877d9"};
    for (String outcome : List.of("success", "fallback", "rejected", "failure", "timeout")) {
      outcomes.put(outcome, rate("brace_calls_seconds_count", "outcome", outcome));
    }
    panel(html, "Calls by outcome", "sum by (outcome) (rate(brace_calls_seconds_count[…]))", "calls/s",
        pairs, script, end, outcomes, colors);
    panel(html, "Call latency p50 / p99 (as the caller saw it)",
        "histogram_quantile(0.99, sum by (le, call) (rate(brace_calls_seconds_bucket[…])))", "ms", pairs, script, end,
        Map.of("p50", quantile(0.5), "p99", quantile(0.99)), new String[] {"#5794f2", "#f2495c"});
    stateTimeline(html, pairs, script, end);
    panel(html, "Attempts by outcome (retries included)", "sum by (call, outcome) (rate(brace_attempts_seconds_count[…]))",
        "attempts/s", pairs, script, end,
        ordered("success", rate("brace_attempts_seconds_count", "outcome", "success"),
            "failure", rate("brace_attempts_seconds_count", "outcome", "failure")),
        new String[] {"#73bf69", "#f2495c"});
    panel(html, "Rate limiter and bulkhead wait (mean)",
        "rate(brace_bulkhead_wait_seconds_sum[…]) / rate(brace_bulkhead_wait_seconds_count[…])", "ms", pairs, script, end,
        ordered("rate limiter recs-api", mean("brace_ratelimit_wait_seconds", "name", "recs-api"),
            "bulkhead recs-api", mean("brace_bulkhead_wait_seconds", "name", "recs-api")),
        new String[] {"#fade2a", "#8ab8ff"});
    panel(html, "Retry budget and retries", "brace_retry_budget_available · rate(brace_retry_attempts_total[…])", "",
        pairs, script, end,
        ordered("budget recs-retries (retries allowed)", gauge("brace_retry_budget_available", "name", "recs-retries"),
            "retried /s", rate("brace_retry_attempts_total", "outcome", "retried")),
        new String[] {"#b877d9", "#ff9830"});
    html.append("</div></body></html>\n");
    return html.toString();
  }

  private static Map<String, ToDoubleFunction<Sampled[]>> ordered(String a, ToDoubleFunction<Sampled[]> fa, String b,
      ToDoubleFunction<Sampled[]> fb) {
    Map<String, ToDoubleFunction<Sampled[]>> series = new LinkedHashMap<>();
    series.put(a, fa);
    series.put(b, fb);
    return series;
  }

  private static double x(double seconds, double end) {
    return LEFT + (WIDTH - LEFT - 8) * seconds / end;
  }

  private static void open(StringBuilder html, String title, String query) {
    html.append("<div class='panel'><div class='t'>").append(title).append("</div><div class='q'>")
        .append(query.replace("<", "&lt;")).append("</div>");
  }

  /** Phase boundaries as dashed lines with their names, under the series. */
  private static void phases(StringBuilder svg, IncidentScript script, double end) {
    List<Duration> starts = script.phaseStarts();
    String[] names = {"healthy", "brownout", "latency spike", "hard down", "recovery"};
    for (int i = 0; i < starts.size(); i++) {
      double x = x(starts.get(i).toMillis() / 1000.0, end);
      svg.append(String.format(Locale.ROOT,
          "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#3d4148' stroke-dasharray='3,3'/>"
              + "<text x='%.1f' y='%d' fill='#6e7180' font-size='10'>%s</text>",
          x, TOP, x, HEIGHT - BOTTOM, x + 3, TOP + 10, names[i]));
    }
    for (int second = 0; second <= end; second += 2) {
      svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' fill='#8e8e9e' font-size='10' text-anchor='middle'>%ds</text>",
          x(second, end), HEIGHT - 6, second));
    }
  }

  private static void panel(StringBuilder html, String title, String query, String unit, List<Sampled[]> pairs,
      IncidentScript script, double end, Map<String, ToDoubleFunction<Sampled[]>> series, String[] colors) {
    open(html, title, query);
    Map<String, double[]> values = new LinkedHashMap<>();
    double max = 0;
    for (Map.Entry<String, ToDoubleFunction<Sampled[]>> entry : series.entrySet()) {
      double[] points = pairs.stream().mapToDouble(entry.getValue()).toArray();
      values.put(entry.getKey(), points);
      for (double point : points) {
        if (!Double.isNaN(point)) {
          max = Math.max(max, point);
        }
      }
    }
    max = niceMax(max);
    StringBuilder svg = new StringBuilder(String.format("<svg width='%d' height='%d'>", WIDTH, HEIGHT));
    for (int i = 0; i <= 4; i++) {
      double y = TOP + (HEIGHT - TOP - BOTTOM) * (1 - i / 4.0);
      svg.append(String.format(Locale.ROOT,
          "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#24272b'/><text x='%d' y='%.1f' fill='#8e8e9e' font-size='10' text-anchor='end'>%s</text>",
          LEFT, y, WIDTH - 8, y, LEFT - 4, y + 3, label(max * i / 4.0, unit)));
    }
    phases(svg, script, end);
    int color = 0;
    StringBuilder legend = new StringBuilder("<div class='legend'>");
    for (Map.Entry<String, double[]> entry : values.entrySet()) {
      String stroke = colors[color++ % colors.length];
      StringBuilder path = new StringBuilder();
      boolean drawing = false;
      for (int i = 0; i < entry.getValue().length; i++) {
        double value = entry.getValue()[i];
        if (Double.isNaN(value)) {
          drawing = false;
          continue;
        }
        double x = x(pairs.get(i)[1].seconds(), end);
        double y = TOP + (HEIGHT - TOP - BOTTOM) * (1 - (max == 0 ? 0 : value / max));
        path.append(drawing ? " L" : " M").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
        drawing = true;
      }
      svg.append("<path d='").append(path).append("' fill='none' stroke='").append(stroke).append("' stroke-width='1.8'/>");
      legend.append("<span><i style='background:").append(stroke).append("'></i>").append(entry.getKey()).append("</span>");
    }
    html.append(svg).append("</svg>").append(legend).append("</div></div>");
  }

  private static void stateTimeline(StringBuilder html, List<Sampled[]> pairs, IncidentScript script, double end) {
    open(html, "Circuit breaker state", "max by (name) (brace_circuitbreaker_state) · increase(brace_circuitbreaker_transitions_total[…])");
    StringBuilder svg = new StringBuilder(String.format("<svg width='%d' height='%d'>", WIDTH, HEIGHT));
    String[] colors = {"#73bf69", "#f2495c", "#fade2a"};
    String[] names = {"closed", "open", "half-open"};
    ToDoubleFunction<Sampled[]> state = gauge("brace_circuitbreaker_state", "name", "recs-api");
    double bandTop = 40;
    double bandHeight = 50;
    svg.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' fill='#ccccdc' font-size='11' text-anchor='end'>recs-api</text>",
        LEFT - 4, bandTop + bandHeight / 2 + 4));
    for (Sampled[] pair : pairs) {
      double value = state.applyAsDouble(pair);
      if (Double.isNaN(value)) {
        continue;
      }
      double x0 = x(pair[0].seconds(), end);
      double x1 = x(pair[1].seconds(), end);
      svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>",
          x0, bandTop, x1 - x0 + 0.5, bandHeight, colors[(int) value]));
    }
    // Transitions, from the counter: a tick where any happened in the interval, so none is lost between scrapes.
    ToDoubleFunction<Sampled[]> opened = rate("brace_circuitbreaker_transitions_total", "name", "recs-api", "to", "open");
    ToDoubleFunction<Sampled[]> closed = rate("brace_circuitbreaker_transitions_total", "name", "recs-api", "to", "closed");
    ToDoubleFunction<Sampled[]> halfOpen = rate("brace_circuitbreaker_transitions_total", "name", "recs-api", "to", "half_open");
    double tickTop = bandTop + bandHeight + 14;
    svg.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' fill='#8e8e9e' font-size='10' text-anchor='end'>transitions</text>",
        LEFT - 4, tickTop + 14));
    for (Sampled[] pair : pairs) {
      double x = x(pair[1].seconds(), end);
      double seconds = pair[1].seconds() - pair[0].seconds();
      double[] counts = {opened.applyAsDouble(pair) * seconds, halfOpen.applyAsDouble(pair) * seconds, closed.applyAsDouble(pair) * seconds};
      String[] tickColors = {colors[1], colors[2], colors[0]};
      double y = tickTop;
      for (int i = 0; i < counts.length; i++) {
        for (int n = 0; n < Math.round(counts[i]); n++) {
          svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='5' height='6' fill='%s'/>", x - 2.5, y, tickColors[i]));
          y += 7;
        }
      }
    }
    phases(svg, script, end);
    StringBuilder legend = new StringBuilder("<div class='legend'>");
    for (int i = 0; i < names.length; i++) {
      legend.append("<span><i style='background:").append(colors[i]).append("'></i>").append(names[i]).append("</span>");
    }
    legend.append("<span>ticks: transitions in each scrape interval (to open, to half-open, to closed)</span>");
    html.append(svg).append("</svg>").append(legend).append("</div></div>");
  }

  private static double niceMax(double max) {
    if (max <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * magnitude >= max) {
        return step * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String label(double value, String unit) {
    String number = value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
    return unit.isEmpty() ? number : number + " " + unit;
  }
}
