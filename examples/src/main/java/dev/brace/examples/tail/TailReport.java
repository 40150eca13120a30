package dev.brace.examples.tail;

import static dev.brace.examples.Svg.escape;
import static dev.brace.examples.Svg.line;
import static dev.brace.examples.Svg.rect;
import static dev.brace.examples.Svg.text;

import dev.brace.examples.tail.TailRun.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * What the tail-latency demo prints and draws: a table of latency percentiles and requests per
 * way, and a self-contained HTML page (inline SVG and CSS, nothing fetched) with the latency of
 * every way by percentile and the load each put on the service. The chart is also written on its
 * own, as an SVG file the docs show.
 */
public final class TailReport {
  private static final String[] COLOURS = {"#8a8a8a", "#e0a030", "#3a9d5d"};
  private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};
  private static final int WIDTH = 880;
  private static final int LEFT = 64;
  private static final int RIGHT = 250;
  private static final int TOP = 34;
  private static final int PLOT_HEIGHT = 300;
  /** The x axis goes to 99.9%: three nines. */
  private static final double NINES = 3;

  private TailReport() {}

  /**
   * @param results the ways, the plain one first
   * @return the console summary: one row per way
   */
  public static String table(List<Result> results) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-26s %6s %6s %7s %7s %7s %7s %9s %8s  %s%n",
        "", "calls", "errors", "p50", "p90", "p99", "p99.9", "requests", "extra", "what Brace did"));
    for (Result result : results) {
      out.append(String.format(Locale.ROOT, "%-26s %6d %6d", result.way().title(), result.calls(), result.errors()));
      for (double quantile : QUANTILES) {
        out.append(String.format(Locale.ROOT, " %5.0fms", result.millis(quantile)));
      }
      out.append(String.format(Locale.ROOT, " %9d %7.1f%%  %s%n", result.received(), 100 * result.extraLoad(), activity(result)));
    }
    return out.toString();
  }

  /** @return what Brace did for a way, from its events: hedges, or timeouts and retries, or nothing */
  static String activity(Result result) {
    if (result.events("hedge.started") > 0 || result.events("hedge.budget_exhausted") > 0) {
      return String.format(Locale.ROOT, "%d hedges sent, %d of them answered first",
          result.events("hedge.started"), result.events("hedge.won.hedge"));
    }
    if (result.events("timeout.exceeded") > 0) {
      return String.format(Locale.ROOT, "%d attempts timed out, %d retried",
          result.events("timeout.exceeded"), result.events("retry.retried"));
    }
    return "";
  }

  /**
   * @param results the ways, the plain one first
   * @param tail how the service answered
   * @param callers callers per way
   * @param page where to write the HTML page
   * @param chart where to write the chart alone, as SVG
   * @throws IOException when a file cannot be written
   */
  public static void write(List<Result> results, TailService.Tail tail, int callers, Path page, Path chart) throws IOException {
    for (Path file : List.of(page, chart)) {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    }
    Files.writeString(page, render(results, tail, callers), StandardCharsets.UTF_8);
    Files.writeString(chart, chart(results), StandardCharsets.UTF_8);
  }

  /**
   * @param results the ways, the plain one first
   * @param tail how the service answered
   * @param callers callers per way
   * @return the page
   */
  public static String render(List<Result> results, TailService.Tail tail, int callers) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<title>Brace hedging report</title>\n<style>\n")
        .append("body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;margin:24px auto;max-width:1000px;padding:0 12px}\n")
        .append("h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 6px}p.lede{color:#555;margin:0 0 14px}\n")
        .append("table{border-collapse:collapse;margin:6px 0}td,th{padding:3px 12px;text-align:right;border-bottom:1px solid #eee}\n")
        .append("td:first-child,th:first-child{text-align:left}th{background:#f5f5f5}td{white-space:nowrap}td.what{white-space:normal;text-align:left}\n")
        .append(".better{color:#1e7b3c;font-weight:600}.note{color:#666;font-size:12.5px}svg text{font-family:system-ui,sans-serif}\n")
        .append("i.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px;border-radius:2px}\n")
        .append("</style></head><body>\n");
    page.append("<h1>Brace hedging report</h1>\n<p class=\"lede\">")
        .append(escape(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z"))))
        .append(String.format(Locale.ROOT, " · a price service answering in %d ms, one answer in %d, at random, %d× slower (%d ms)",
            tail.fast().toMillis(), Math.round(1 / tail.slowShare()), tail.slow().toMillis() / tail.fast().toMillis(),
            tail.slow().toMillis()))
        .append(String.format(Locale.ROOT, " · %d ways of calling it, taking turns, %d callers at a time, %d calls per way</p>%n",
            results.size(), callers, results.get(0).calls()));

    page.append("<h2>Latency and load</h2>\n<table><tr><th>way</th><th>calls</th><th>errors</th>");
    for (double quantile : QUANTILES) {
      page.append("<th>").append(label(quantile)).append("</th>");
    }
    page.append("<th>requests received</th><th>extra load</th><th>what Brace did</th></tr>\n");
    Result plain = results.get(0);
    for (int w = 0; w < results.size(); w++) {
      Result result = results.get(w);
      page.append("<tr><td><i class=\"swatch\" style=\"background:").append(COLOURS[w % COLOURS.length]).append("\"></i>")
          .append(escape(result.way().title())).append("</td><td>").append(result.calls()).append("</td><td>")
          .append(result.errors()).append("</td>");
      for (double quantile : QUANTILES) {
        boolean better = w > 0 && result.millis(quantile) < 0.8 * plain.millis(quantile);
        page.append("<td").append(better ? " class=\"better\"" : "").append('>')
            .append(String.format(Locale.ROOT, "%.0f ms", result.millis(quantile))).append("</td>");
      }
      page.append("<td>").append(result.received()).append("</td><td>")
          .append(String.format(Locale.ROOT, "%+.1f%%", 100 * result.extraLoad())).append("</td><td class=\"what\">")
          .append(escape(activity(result))).append("</td></tr>\n");
    }
    page.append("</table>\n<p class=\"note\">Latency is what each caller measured around its call, percentiles by"
        + " nearest rank. Requests are what the service's access count received for each way; extra load is"
        + " requests per call less one. Hedges and their winners come from the registry's <code>hedge.started</code>"
        + " and <code>hedge.won</code> events; timeouts and retries from <code>timeout.exceeded</code> and"
        + " <code>retry.attempt_failed</code>.</p>\n");
    page.append("<h2>Latency by percentile</h2>\n").append(chart(results));
    page.append("<p class=\"note\">").append(caption(results)).append("</p>\n");
    page.append("<h2>What each way cost the service</h2>\n").append(loadBars(results));
    page.append("</body></html>\n");
    return page.toString();
  }

  /** The comparison in words, with the run's numbers. */
  static String caption(List<Result> results) {
    Result plain = results.get(0);
    StringBuilder caption = new StringBuilder(String.format(Locale.ROOT,
        "Without Brace the slow answers are the tail: p99 %.0f ms, p99.9 %.0f ms.", plain.millis(0.99), plain.millis(0.999)));
    for (Result result : results.subList(1, results.size())) {
      caption.append(String.format(Locale.ROOT, " With %s: p99 %.0f ms, p99.9 %.0f ms, for %+.1f%% requests.",
          escape(result.way().title()), result.millis(0.99), result.millis(0.999), 100 * result.extraLoad()));
    }
    return caption.toString();
  }

  /**
   * @param results the ways
   * @return latency (linear, ms) against percentile (a scale of nines: 0, 90, 99, 99.9%), one line per
   *     way, its p99 marked and given in the legend; a standalone SVG document
   */
  public static String chart(List<Result> results) {
    int plotWidth = WIDTH - LEFT - RIGHT;
    int height = TOP + PLOT_HEIGHT + 46;
    double top = niceCeiling(results.stream().mapToDouble(result -> result.millis(0.999)).max().orElse(1));
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\""
            + " aria-label=\"latency by percentile\" font-family=\"system-ui,-apple-system,Segoe UI,Roboto,sans-serif\">%n",
        WIDTH, height, WIDTH, height));
    rect(svg, 0, 0, WIDTH, height, "#ffffff", null);
    text(svg, LEFT, 18, "latency (ms) by percentile of calls", "start", 12.5, "#333", true);
    double step = top / 5;
    for (int i = 0; i <= 5; i++) {
      double y = TOP + PLOT_HEIGHT - PLOT_HEIGHT * i / 5.0;
      line(svg, LEFT, y, LEFT + plotWidth, y, i == 0 ? "#999" : "#e6e6e6", 1);
      text(svg, LEFT - 8, y + 4, String.format(Locale.ROOT, "%.0f", step * i), "end", 11, "#555", false);
    }
    double[][] ticks = {{0, 0}, {0.5, Math.log10(2)}, {0.9, 1}, {0.99, 2}, {0.999, 3}};
    for (double[] tick : ticks) {
      double x = LEFT + plotWidth * tick[1] / NINES;
      line(svg, x, TOP, x, TOP + PLOT_HEIGHT, tick[1] == 0 ? "#999" : "#e6e6e6", 1);
      text(svg, x, TOP + PLOT_HEIGHT + 16, label(tick[0]), "middle", 11, "#555", false);
    }
    text(svg, LEFT + plotWidth / 2.0, TOP + PLOT_HEIGHT + 36, "percentile of calls (each step: ten times rarer)", "middle", 11, "#555", false);
    for (int w = 0; w < results.size(); w++) {
      Result result = results.get(w);
      String colour = COLOURS[w % COLOURS.length];
      StringBuilder points = new StringBuilder();
      for (int i = 0; i <= 300; i++) {
        double nines = NINES * i / 300;
        double quantile = 1 - Math.pow(10, -nines);
        double millis = Math.min(top, result.millis(quantile));
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + plotWidth * nines / NINES,
            TOP + PLOT_HEIGHT - PLOT_HEIGHT * millis / top));
      }
      svg.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2.2\" points=\"")
          .append(points.toString().trim()).append("\"/>\n");
      double p99 = result.millis(0.99);
      double x = LEFT + plotWidth * 2 / NINES;
      double y = TOP + PLOT_HEIGHT - PLOT_HEIGHT * Math.min(top, p99) / top;
      svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n", x, y, colour));
      double legendY = TOP + 14 + 44 * w;
      rect(svg, LEFT + plotWidth + 16, legendY - 10, 12, 12, colour, null);
      text(svg, LEFT + plotWidth + 34, legendY, result.way().title(), "start", 12, "#222", true);
      text(svg, LEFT + plotWidth + 34, legendY + 16, String.format(Locale.ROOT, "p99 %.0f ms, %+.1f%% requests",
          p99, 100 * result.extraLoad()), "start", 11.5, "#555", false);
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  /** Horizontal bars: requests the service received per way, with the extra load they cost. */
  private static String loadBars(List<Result> results) {
    int barHeight = 24;
    int labelWidth = 190;
    int plotWidth = WIDTH - labelWidth - 290;
    int height = results.size() * (barHeight + 12) + 8;
    long most = TailRun.max(results, Result::received);
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"requests per way\">%n",
        WIDTH, height, WIDTH, height));
    for (int w = 0; w < results.size(); w++) {
      Result result = results.get(w);
      double y = 4 + w * (barHeight + 12);
      double width = plotWidth * (double) result.received() / Math.max(1, most);
      text(svg, labelWidth - 10, y + 16, result.way().title(), "end", 12, "#222", true);
      rect(svg, labelWidth, y, width, barHeight, COLOURS[w % COLOURS.length], null);
      text(svg, labelWidth + width + 8, y + 16, String.format(Locale.ROOT, "%d requests (%+.1f%%) for %d calls",
          result.received(), 100 * result.extraLoad(), result.calls()), "start", 11.5, "#333", false);
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static String label(double quantile) {
    if (quantile == 0) {
      return "0%";
    }
    String text = String.format(Locale.ROOT, "%.1f", 100 * quantile);
    return "p" + (text.endsWith(".0") ? text.substring(0, text.length() - 2) : text);
  }

  /** @return the smallest round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at or above {@code value} */
  static double niceCeiling(double value) {
    double power = Math.pow(10, Math.floor(Math.log10(Math.max(value, 1e-9))));
    for (double factor : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (factor * power >= value) {
        return factor * power;
      }
    }
    return 10 * power;
  }
}
