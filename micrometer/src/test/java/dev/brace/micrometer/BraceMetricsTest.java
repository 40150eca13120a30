package dev.brace.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.CallKeys;
import java.util.concurrent.CompletableFuture;
import dev.brace.runtime.generated.ResilientCall;
import dev.brace.runtime.internal.sequence.SyncDriver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A scripted scenario on manual time, then every meter read. */
class BraceMetricsTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry brace = Registry.builder().timeSource(clock).build();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private ResilientCall guard(CallDefinition.Builder definition) {
    return brace.resolve(definition.build());
  }

  private static Object succeed(ResilientCall guard) throws Throwable {
    return guard.call(() -> "ok", null);
  }

  private static void fail(ResilientCall guard) {
    assertThrows(Throwable.class, () -> guard.call(() -> {
      throw new IOException("down");
    }, null));
  }

  private double calls(String kind, String name, String outcome) {
    Counter counter = meters.find("brace.calls").tags("kind", kind, "name", name, "outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  private double gauge(String meterName, String name) {
    Gauge gauge = meters.find(meterName).tag("name", name).gauge();
    assertTrue(gauge != null, meterName + " for " + name);
    return gauge.value();
  }

  @Test
  void countsOutcomesAndReadsStateOfEveryInstance() throws Throwable {
    // Created before binding: found through registry.names().
    ResilientCall backend = guard(CallDefinition.builder("Client.get")
        .with(CircuitBreakerConfig.builder("backend").failureThreshold(2).resetTimeout("10s"))
        .with(BulkheadConfig.builder("pool").maxConcurrent(2)));
    AutoCloseable binding = BraceMetrics.bind(brace, meters);
    // Created after binding: found through its creation.
    ResilientCall quota = guard(CallDefinition.builder("Client.list")
        .with(RateLimitConfig.builder("quota").permits(1).per("1s").burst(1)));
    ResilientCall slow = guard(CallDefinition.builder("Client.slow")
        .with(RetryConfig.builder("Client.slow").maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE))
        .with(TimeoutConfig.builder("Client.slow").duration("1s"))
        .with(FallbackConfig.builder("Client.slow")));

    succeed(backend);
    fail(backend);
    fail(backend);
    assertEquals(1, gauge("brace.circuitbreaker.state", "backend"), "open");
    fail(backend);
    CompletableFuture<Object> heldByAnother = new CompletableFuture<>();
    guard(CallDefinition.builder("Client.put").with(BulkheadConfig.builder("pool").maxConcurrent(2))).callAsync(() -> heldByAnother, null);
    assertEquals(1, gauge("brace.bulkhead.in_flight", "pool"));
    assertEquals(2, gauge("brace.bulkhead.limit", "pool"), "a fixed bulkhead's limit is maxConcurrent");

    assertEquals(1, calls("circuitbreaker", "backend", "success"));
    assertEquals(2, calls("circuitbreaker", "backend", "failure"));
    assertEquals(1, calls("circuitbreaker", "backend", "rejected"));
    assertEquals(1, calls("bulkhead", "pool", "success"));
    assertEquals(2, calls("bulkhead", "pool", "failure"));

    clock.advance(Duration.ofSeconds(10));
    CompletableFuture<Object> probe = new CompletableFuture<>();
    backend.callAsync(() -> probe, null);
    assertEquals(2, gauge("brace.circuitbreaker.state", "backend"), "half-open");
    assertEquals(2, gauge("brace.bulkhead.in_flight", "pool"));
    probe.complete("ok");
    assertEquals(0, gauge("brace.circuitbreaker.state", "backend"), "closed");
    heldByAnother.complete("done");
    assertEquals(0, gauge("brace.bulkhead.in_flight", "pool"));

    assertEquals(1, gauge("brace.ratelimiter.available_permits", "quota"));
    assertEquals(1, gauge("brace.ratelimiter.rate", "quota"), "a fixed limiter's rate is permits");
    succeed(quota);
    assertEquals(0, gauge("brace.ratelimiter.available_permits", "quota"));
    assertThrows(Throwable.class, () -> succeed(quota));
    assertEquals(1, calls("ratelimit", "quota", "success"));
    assertEquals(1, calls("ratelimit", "quota", "rejected"));

    Object answer = slow.call(() -> {
      clock.sleep(Duration.ofSeconds(5));
      return "late";
    }, failure -> "cached");
    assertEquals("cached", answer);
    assertEquals(2, meters.get("brace.timeouts").tag("name", "Client.slow").counter().count());
    assertEquals(2, calls("timeout", "Client.slow", "failure"));
    assertEquals(1, meters.get("brace.retry.attempts").tags("name", "Client.slow", "outcome", "retried").counter().count());
    assertEquals(1, meters.get("brace.retry.attempts").tags("name", "Client.slow", "outcome", "exhausted").counter().count());
    assertEquals(1, calls("fallback", "Client.slow", "fallback"));

    binding.close();
    assertNull(meters.find("brace.calls").meter(), "closing removes the meters");
    assertNull(meters.find("brace.circuitbreaker.state").meter());
    succeed(backend);
    assertNull(meters.find("brace.calls").meter(), "and stops counting");
  }

  @Test
  void aKeyedFamilyIsCountedUnderItsNameWithoutGauges() throws Throwable {
    BraceMetrics.bind(brace, meters);
    ResilientCall tenants = guard(CallDefinition.builder("Client.get")
        .with(CircuitBreakerConfig.builder("tenant").key("{id}").failureThreshold(5)));

    tenants.call(() -> CallKeys.of("acme", null), () -> "ok", null);
    tenants.call(() -> CallKeys.of("globex", null), () -> "ok", null);

    assertEquals(2, calls("circuitbreaker", "tenant", "success"));
    assertNull(meters.find("brace.circuitbreaker.state").meter());
  }

  @Test
  void staleAnswersAreCountedServedOrMissing() throws Throwable {
    BraceMetrics.bind(brace, meters);
    ResilientCall remembered = guard(CallDefinition.builder("Client.recs")
        .with(dev.brace.runtime.config.StaleIfErrorConfig.builder("Client.recs").maxAge("1m")));

    remembered.call(() -> CallKeys.of(null, null, "ada"), () -> "ok", null);
    assertEquals("ok", remembered.call(() -> CallKeys.of(null, null, "ada"), () -> {
      throw new IOException("down");
    }, null));
    assertThrows(IOException.class, () -> remembered.call(() -> CallKeys.of(null, null, "bob"), () -> {
      throw new IOException("down");
    }, null));

    assertEquals(1, meters.find("brace.stale").tags("name", "Client.recs", "outcome", "served").counter().count());
    assertEquals(1, meters.find("brace.stale").tags("name", "Client.recs", "outcome", "missing").counter().count());
  }
}
