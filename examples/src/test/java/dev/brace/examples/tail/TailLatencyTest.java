package dev.brace.examples.tail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.TailLatencyDemo;
import dev.brace.runtime.Registry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hedging demo's story against the real HTTP service, shortened, with the same three ways the
 * demo wires. Its slow answers take two seconds, not the demo's 200 ms: the plain way's p99 is then
 * at least 1.6 s whatever the machine does, and the hedged way misses its hedge only if the machine
 * stalls a caller for most of a second, so the comparison holds on a loaded machine too.
 */
class TailLatencyTest {
  private static final TailService.Tail TAIL = new TailService.Tail(Duration.ofMillis(10), Duration.ofSeconds(2), 0.05);
  private static TailService service;
  private static List<TailRun.Result> results;

  @BeforeAll
  static void callTheServiceThreeWays() throws Exception {
    service = TailService.start(TAIL);
    // No BRACE_* variable of the machine running the tests may change the story.
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    Map<String, Map<String, LongAdder>> events = new ConcurrentHashMap<>();
    registry.subscribe(TailRun.tally(events));
    List<TailRun.Way> ways = TailLatencyDemo.ways(HttpRecsClient.defaultHttpClient(), service.uri(), registry);
    TailRun.run(service, ways, 4, 1, 5, events);
    // 300 calls per way: the plain way's p99 is its fourth slowest call, of fifteen slow ones expected.
    results = TailRun.run(service, ways, 4, 5, 15, events);
  }

  @AfterAll
  static void stopTheService() {
    service.close();
  }

  private static TailRun.Result way(int index) {
    return results.get(index);
  }

  @Test
  void hedgingCutsTheTailThePlainCallersSee() {
    TailRun.Result plain = way(0);
    TailRun.Result hedging = way(2);

    assertTrue(plain.millis(0.99) >= 1_600, "the slow answers are the plain way's p99: " + plain.millis(0.99));
    assertTrue(hedging.millis(0.99) < plain.millis(0.99) / 2,
        "hedged p99 " + hedging.millis(0.99) + " ms against " + plain.millis(0.99) + " ms");
    assertEquals(0, hedging.errors());
  }

  @Test
  void hedgingCostsRequestsAndTheRegistrySaysHowMany() {
    TailRun.Result hedging = way(2);

    long hedges = hedging.events("hedge.started");
    assertTrue(hedges > 0, "the slow answers made the hedge start");
    // A hedge stopped the instant it started may not have sent its request.
    assertTrue(hedging.received() > hedging.calls() && hedging.received() <= hedging.calls() + hedges,
        hedging.received() + " requests for " + hedging.calls() + " calls and " + hedges + " hedges");
    assertEquals(0, way(0).received() - way(0).calls(), "without Brace one request per call");
  }

  @Test
  void theReportStatesLatencyAndExtraLoadPerWay(@TempDir Path directory) throws Exception {
    Path page = directory.resolve("report.html");
    Path chart = directory.resolve("chart.svg");
    TailReport.write(results, TAIL, 4, page, chart);

    String html = Files.readString(page);
    for (TailRun.Result result : results) {
      assertTrue(html.contains(result.way().title()), result.way().title());
      assertTrue(html.contains(String.format(java.util.Locale.ROOT, "%+.1f%%", 100 * result.extraLoad())),
          "the extra load of " + result.way().title());
    }
    assertTrue(Files.readString(chart).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), "a standalone SVG");
    assertTrue(TailReport.table(results).contains("hedges sent"));
  }
}
