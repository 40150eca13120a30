package dev.brace.examples.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Drives a generated wrapper through a success, failures, a breaker opening and its refusal, a
 * limiter wait, a bulkhead wait and a fallback, on manual time, then reads the meters the way
 * Prometheus does: from the text format of a scrape.
 */
class PrometheusScrapeTest {
  private static final ManualTimeSource CLOCK = new ManualTimeSource();
  private static Scrape scrape;

  /** Answers as scripted, taking the time the script says on the registry's clock. */
  static final class ScriptedCatalog implements Catalog {
    final Deque<Object> itemAnswers = new ArrayDeque<>();
    final Deque<CompletableFuture<Integer>> stockAnswers = new ArrayDeque<>();

    @Override
    public String item(String id) throws IOException {
      Object answer = itemAnswers.removeFirst();
      sleep(40);
      if (answer instanceof IOException) {
        throw (IOException) answer;
      }
      return (String) answer;
    }

    @Override
    public String search(String query) {
      sleep(10);
      return "found " + query;
    }

    @Override
    public String price(String id) throws IOException {
      sleep(200);
      throw new IOException("prices are down");
    }

    @Override
    public CompletableFuture<Integer> stock(String id) {
      return stockAnswers.removeFirst();
    }

    private static void sleep(long millis) {
      try {
        CLOCK.sleep(Duration.ofMillis(millis));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * @return the scrape after the scenario, which runs once per JVM (on one clock), however many
   *     test classes read it
   */
  static synchronized Scrape scrape() throws Exception {
    if (scrape == null) {
      scrape = driveTheWrapperAndScrape();
    }
    return scrape;
  }

  @BeforeAll
  static void runTheScenario() throws Exception {
    scrape();
  }

  private static Scrape driveTheWrapperAndScrape() throws Exception {
    Registry registry = Registry.builder().timeSource(CLOCK).build();
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    prometheus.config().meterFilter(histogramsFor("brace.calls"));
    ScriptedCatalog service = new ScriptedCatalog();
    Catalog catalog = ResilientCatalog.wrap(service, registry);

    try (AutoCloseable binding = BraceMetrics.bind(registry, prometheus)) {
      service.itemAnswers.add("lamp");
      service.itemAnswers.add(new IOException("catalog down"));
      service.itemAnswers.add(new IOException("catalog down"));
      assertEquals("lamp", catalog.item("1"));
      assertThrows(IOException.class, () -> catalog.item("2"));
      assertThrows(IOException.class, () -> catalog.item("3"));
      assertThrows(CircuitOpenException.class, () -> catalog.item("4"));

      assertEquals("found a", catalog.search("a"));
      assertEquals("found b", catalog.search("b")); // waits a second for its token

      assertEquals("9.99", catalog.price("1"));

      CompletableFuture<Integer> held = new CompletableFuture<>();
      service.stockAnswers.add(held);
      service.stockAnswers.add(CompletableFuture.completedFuture(7));
      CompletableFuture<Integer> first = catalog.stock("1");
      CompletableFuture<Integer> second = catalog.stock("2"); // waits for the permit
      CLOCK.advance(Duration.ofMillis(250));
      held.complete(3);
      CLOCK.advance(Duration.ofMillis(250));
      assertEquals(3, first.join());
      assertEquals(7, second.join());

      return Scrape.parse(prometheus.scrape());
    }
  }

  /** What the guide tells users to write to get histogram buckets for a meter. */
  static MeterFilter histogramsFor(String meterName) {
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        return id.getName().equals(meterName)
            ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
            : config;
      }
    };
  }

  @Test
  void callsAreCountedByOutcomeUnderTheInstanceThatDecided() {
    assertEquals(1, scrape.value("brace_calls_seconds_count",
        "call", "Catalog.item", "kind", "call", "name", "Catalog.item", "outcome", "success"));
    assertEquals(2, scrape.value("brace_calls_seconds_count",
        "call", "Catalog.item", "kind", "call", "name", "Catalog.item", "outcome", "failure"));
    assertEquals(1, scrape.value("brace_calls_seconds_count",
        "call", "Catalog.item", "kind", "circuitbreaker", "name", "catalog", "outcome", "rejected"));
    assertEquals(1, scrape.value("brace_calls_seconds_count",
        "call", "Catalog.price", "kind", "fallback", "name", "Catalog.price", "outcome", "fallback"));
    // Two attempts of 200 ms and the 100 ms between them: what the caller waited before the fallback.
    assertEquals(0.5, scrape.value("brace_calls_seconds_sum",
        "call", "Catalog.price", "kind", "fallback", "name", "Catalog.price", "outcome", "fallback"), 1e-9);
    assertEquals(0.08, scrape.value("brace_calls_seconds_sum",
        "call", "Catalog.item", "kind", "call", "name", "Catalog.item", "outcome", "failure"), 1e-9);
  }

  @Test
  void histogramBucketsAreCumulativeAndEndInTheCount() {
    String[] failures = {"call", "Catalog.item", "kind", "call", "name", "Catalog.item", "outcome", "failure"};
    assertEquals(2, scrape.value("brace_calls_seconds_bucket", with(failures, "le", "+Inf")));
    // Both failures took 40 ms: none falls in a bucket below it, both in every bucket from 40 ms.
    assertTrue(scrape.samples("brace_calls_seconds_bucket").stream()
        .filter(sample -> sample.has(failures))
        .allMatch(sample -> sample.value() == (Double.parseDouble(sample.label("le").replace("+Inf", "Infinity")) < 0.04 ? 0 : 2)),
        "buckets " + scrape.samples("brace_calls_seconds_bucket"));
    assertTrue(scrape.samples("brace_calls_seconds_bucket").stream().filter(sample -> sample.has(failures)).count() > 10);
  }

  @Test
  void attemptsWaitsTransitionsAndGaugesAreScraped() {
    assertEquals(2, scrape.value("brace_attempts_seconds_count", "call", "Catalog.price", "outcome", "failure"));
    assertEquals(1, scrape.value("brace_attempts_seconds_count", "call", "Catalog.item", "outcome", "success"));
    assertEquals(1, scrape.value("brace_ratelimit_wait_seconds_count", "name", "catalog-search"));
    // The token came a second after the first, which took 10 ms of it.
    assertEquals(0.99, scrape.value("brace_ratelimit_wait_seconds_sum", "name", "catalog-search"), 1e-9);
    assertEquals(1, scrape.value("brace_bulkhead_wait_seconds_count", "name", "catalog-stock"));
    assertEquals(1, scrape.value("brace_circuitbreaker_transitions_total", "name", "catalog", "from", "closed", "to", "open"));
    assertEquals(1, scrape.value("brace_rejections_total", "kind", "circuitbreaker", "name", "catalog"));
    assertEquals(1, scrape.value("brace_circuitbreaker_state", "name", "catalog"), "open");
    assertEquals(0, scrape.value("brace_bulkhead_in_flight", "name", "catalog-stock"));
    // A token a second: the one spent at the second search has come back in the second since.
    assertEquals(1, scrape.value("brace_ratelimiter_available_permits", "name", "catalog-search"));
    assertTrue(scrape.value("brace_retry_budget_available", "name", "catalog-retries") >= 0);
    assertEquals(1, scrape.value("brace_retry_attempts_total", "name", "Catalog.price", "outcome", "retried"));
  }

  private static String[] with(String[] labels, String... more) {
    String[] all = java.util.Arrays.copyOf(labels, labels.length + more.length);
    System.arraycopy(more, 0, all, labels.length, more.length);
    return all;
  }
}
