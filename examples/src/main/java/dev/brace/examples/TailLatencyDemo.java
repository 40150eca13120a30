package dev.brace.examples;

import dev.brace.examples.tail.HedgingPriceClient;
import dev.brace.examples.tail.HttpPriceClient;
import dev.brace.examples.tail.PriceClient;
import dev.brace.examples.tail.ResilientHedgingPriceClient;
import dev.brace.examples.tail.ResilientRetryingPriceClient;
import dev.brace.examples.tail.RetryingPriceClient;
import dev.brace.examples.tail.TailReport;
import dev.brace.examples.tail.TailRun;
import dev.brace.examples.tail.TailService;
import dev.brace.runtime.Registry;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The README's hedging demo: a price service with a heavy latency tail (one answer in twenty is
 * twenty times slower) is called three ways, taking turns — plainly, through {@link
 * RetryingPriceClient} (a 50 ms timeout and a retry) and through {@link HedgingPriceClient} (a
 * hedge after 20 ms) — and the demo prints and draws each way's p50, p90, p99 and p99.9 latency
 * and the requests it sent the service.
 *
 * <p>The registry reads {@code BRACE_*} variables and {@code brace.*} properties, so {@code
 * BRACE_HEDGE_HEDGINGPRICECLIENT_PRICE_DELAY=5ms mvn -q -Phedge-demo package} shows what an
 * impatient hedge costs.
 */
public final class TailLatencyDemo {
  /** Callers per way. */
  static final int CALLERS = 8;
  /** Rounds in which every way in turn makes a batch of calls. */
  static final int ROUNDS = 15;
  /** Calls each caller makes per round: 2,400 calls per way, so p99.9 is the third slowest. */
  static final int CALLS_PER_ROUND = 20;

  private TailLatencyDemo() {}

  /**
   * @param args optionally, where to write the report (default {@code hedging-report.html}); the
   *     chart alone goes next to it, as {@code hedging-latency.svg}
   * @throws Exception when the demo cannot run
   */
  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "hedging-report.html").toAbsolutePath();
    Path chart = report.resolveSibling("hedging-latency.svg");
    TailService.Tail tail = TailService.Tail.standard();
    try (TailService service = TailService.start(tail)) {
      Registry registry = Registry.builder().build();
      Map<String, Map<String, LongAdder>> events = new ConcurrentHashMap<>();
      registry.subscribe(TailRun.tally(events));
      List<TailRun.Way> ways = ways(HttpRecsClient.defaultHttpClient(), service.uri(), registry);
      System.out.printf("A price service on %s answers in %d ms, one answer in %d in %d ms.%n"
              + "It is called three ways, %d callers at a time, in %d rounds of %d calls per caller and way...%n%n",
          service.uri(), tail.fast().toMillis(), Math.round(1 / tail.slowShare()), tail.slow().toMillis(),
          CALLERS, ROUNDS, CALLS_PER_ROUND);
      // A first round unmeasured, so the JIT and the connection pool have settled.
      TailRun.run(service, ways, CALLERS, 1, CALLS_PER_ROUND, events);
      List<TailRun.Result> results = TailRun.run(service, ways, CALLERS, ROUNDS, CALLS_PER_ROUND, events);
      System.out.print(TailReport.table(results));
      TailReport.write(results, tail, CALLERS, report, chart);
      System.out.println();
      System.out.println("report: " + report);
    }
  }

  /**
   * @param http the HTTP client every way shares
   * @param service the price service
   * @param registry where the Brace ways' instances live
   * @return the three ways: without Brace, with a retry and a timeout, with a hedge
   */
  public static List<TailRun.Way> ways(HttpClient http, URI service, Registry registry) {
    String retrying = "RetryingPriceClient.price";
    String hedging = "HedgingPriceClient.price";
    PriceClient plain = new HttpPriceClient(http, service, "plain");
    HttpPriceClient retried = new HttpPriceClient(http, service, retrying);
    HttpPriceClient hedged = new HttpPriceClient(http, service, hedging);
    return List.of(
        new TailRun.Way("without Brace", "plain", plain),
        new TailRun.Way("retry + timeout (50 ms)", retrying, ResilientRetryingPriceClient.wrap(retried::price, registry)),
        new TailRun.Way("hedging (after 20 ms)", hedging, ResilientHedgingPriceClient.wrap(hedged::price, registry)));
  }
}
