package dev.brace.micrometer;

import dev.brace.runtime.support.LambdaCalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.Backend;
import dev.brace.runtime.BackendStatus;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Scripted scenarios on manual time, then every meter read: counts and the durations the clock gave. */
class BraceMetricsTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry brace = Registry.builder().timeSource(clock).build();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  private ResilientCall guard(CallDefinition.Builder definition) {
    return brace.resolve(definition.build());
  }

  /** Succeeds after the given time on the registry's clock. */
  private Object succeed(ResilientCall guard, long millis) {
    return LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofMillis(millis));
      return "ok";
    }, null);
  }

  private void fail(ResilientCall guard, long millis) {
    assertThrows(Throwable.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofMillis(millis));
      throw new IOException("down");
    }, null));
  }

  private Timer calls(String call, String kind, String name, String outcome) {
    return meters.find("brace.calls").tags("call", call, "kind", kind, "name", name, "outcome", outcome).timer();
  }

  private static void assertTimed(Timer timer, long count, long totalMillis) {
    assertTrue(timer != null, "no such timer");
    assertEquals(count, timer.count(), timer.getId().toString());
    assertEquals(totalMillis, (long) timer.totalTime(TimeUnit.MILLISECONDS), timer.getId().toString());
  }

  private double transitions(String name, String from, String to) {
    Counter counter = meters.find("brace.circuitbreaker.transitions").tags("name", name, "from", from, "to", to).counter();
    return counter == null ? 0 : counter.count();
  }

  private double gauge(String meterName, String name) {
    Gauge gauge = meters.find(meterName).tag("name", name).gauge();
    assertTrue(gauge != null, meterName + " for " + name);
    return gauge.value();
  }

  @Test
  void timesCallsAndAttemptsByOutcomeAndCountsTransitions() throws Throwable {
    // Created before binding: found through registry.names().
    ResilientCall backend = guard(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("backend").failureThreshold(2).resetTimeout("10s"))
        .with(BulkheadConfig.builder("pool").maxConcurrent(2)));
    AutoCloseable binding = BraceMetrics.bind(brace, meters);

    succeed(backend, 20);
    fail(backend, 30);
    fail(backend, 50);
    assertEquals(1, gauge("brace.circuitbreaker.state", "backend"), "open");
    assertThrows(Throwable.class, () -> succeed(backend, 0));

    assertTimed(calls("Client.get", "call", "Client.get", "success"), 1, 20);
    assertTimed(calls("Client.get", "call", "Client.get", "failure"), 2, 80);
    assertTimed(calls("Client.get", "circuitbreaker", "backend", "rejected"), 1, 0);
    assertEquals(1, meters.get("brace.rejections").tags("kind", "circuitbreaker", "name", "backend").counter().count());
    assertTimed(meters.get("brace.attempts").tags("call", "Client.get", "outcome", "success").timer(), 1, 20);
    assertTimed(meters.get("brace.attempts").tags("call", "Client.get", "outcome", "failure").timer(), 2, 80);
    assertEquals(1, transitions("backend", "closed", "open"));

    clock.advance(Duration.ofSeconds(10));
    CompletableFuture<Object> probe = new CompletableFuture<>();
    CompletableFuture<Object> probed = LambdaCalls.callAsync(backend, () -> probe, null);
    assertEquals(2, gauge("brace.circuitbreaker.state", "backend"), "half-open");
    assertEquals(1, gauge("brace.bulkhead.in_flight", "pool"));
    assertEquals(2, gauge("brace.bulkhead.limit", "pool"), "a fixed bulkhead's limit is maxConcurrent");
    clock.advance(Duration.ofMillis(70));
    probe.complete("ok");
    assertEquals("ok", probed.join());
    assertEquals(0, gauge("brace.circuitbreaker.state", "backend"), "closed");
    assertEquals(1, transitions("backend", "open", "half_open"));
    assertEquals(1, transitions("backend", "half_open", "closed"));
    assertTimed(calls("Client.get", "call", "Client.get", "success"), 2, 90);
    assertTimed(meters.get("brace.attempts").tags("call", "Client.get", "outcome", "success").timer(), 2, 90);

    binding.close();
    assertNull(meters.find("brace.calls").meter(), "closing removes the meters");
    assertNull(meters.find("brace.circuitbreaker.state").meter());
    succeed(backend, 0);
    assertNull(meters.find("brace.calls").meter(), "and stops counting");
  }

  @Test
  void aTimeoutAnsweredByTheFallbackIsTimedUntilTheFallbackIsCalled() {
    BraceMetrics.bind(brace, meters);
    ResilientCall slow = guard(LambdaCalls.builder("Client.slow")
        .with(RetryConfig.builder("Client.slow").maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE))
        .with(TimeoutConfig.builder("Client.slow").duration("1s"))
        .with(FallbackConfig.builder("Client.slow")));
    ResilientCall unanswered = guard(LambdaCalls.builder("Client.late")
        .with(TimeoutConfig.builder("Client.late").duration("1s")));

    Object answer = LambdaCalls.call(slow, () -> {
      clock.sleep(Duration.ofSeconds(5));
      return "late";
    }, failure -> "cached");
    assertThrows(Throwable.class, () -> succeed(unanswered, 5000));

    assertEquals("cached", answer);
    assertTimed(calls("Client.slow", "fallback", "Client.slow", "fallback"), 1, 2100);
    assertTimed(meters.get("brace.attempts").tags("call", "Client.slow", "outcome", "failure").timer(), 2, 2000);
    assertTimed(calls("Client.late", "timeout", "Client.late", "timeout"), 1, 1000);
    assertEquals(2, meters.get("brace.timeouts").tag("name", "Client.slow").counter().count());
    assertEquals(1, meters.get("brace.retry.attempts").tags("name", "Client.slow", "outcome", "retried").counter().count());
    assertEquals(1, meters.get("brace.retry.attempts").tags("name", "Client.slow", "outcome", "exhausted").counter().count());
  }

  @Test
  void callsThatRanOutOfTheirDeadlineAreCountedAndTheirCallSampleIsAFailureNotATimeout() {
    BraceMetrics.bind(brace, meters);
    ResilientCall quote = guard(LambdaCalls.builder("Client.quote")
        .with(TimeoutConfig.builder("Client.quote").duration("2s")));

    try (dev.brace.runtime.Deadline.Scope request = dev.brace.runtime.Deadline.open(Duration.ofMillis(300), clock)) {
      assertThrows(dev.brace.runtime.DeadlineExceededException.class, () -> succeed(quote, 5000));
      assertThrows(dev.brace.runtime.DeadlineExceededException.class, () -> succeed(quote, 0));
    }

    assertEquals(2, meters.get("brace.deadline.exceeded").tag("name", "Client.quote").counter().count());
    assertNull(meters.find("brace.timeouts").tag("name", "Client.quote").counter(), "its own timeout never expired");
    assertEquals(2, calls("Client.quote", "call", "Client.quote", "failure").count());
  }

  @Test
  void timesWaitsForATokenAndForAPermit() {
    BraceMetrics.bind(brace, meters);
    ResilientCall quota = guard(LambdaCalls.builder("Client.list")
        .with(RateLimitConfig.builder("quota").permits(1).per("1s").burst(1).maxWait("2s")));
    assertEquals(1, gauge("brace.ratelimiter.available_permits", "quota"));
    assertEquals(1, gauge("brace.ratelimiter.rate", "quota"), "a fixed limiter's rate is permits");
    succeed(quota, 0);
    assertEquals(0, gauge("brace.ratelimiter.available_permits", "quota"));
    succeed(quota, 0);
    assertTimed(meters.get("brace.ratelimit.wait").tag("name", "quota").timer(), 1, 1000);

    ResilientCall pool = guard(LambdaCalls.builder("Client.put")
        .with(BulkheadConfig.builder("pool").maxConcurrent(1).maxWait("1s")));
    CompletableFuture<Object> holder = new CompletableFuture<>();
    LambdaCalls.callAsync(pool, () -> holder, null);
    CompletableFuture<Object> waiter = LambdaCalls.callAsync(pool, () -> CompletableFuture.completedFuture("second"), null);
    clock.advance(Duration.ofMillis(300));
    holder.complete("first");
    clock.advance(Duration.ofMillis(300));
    assertEquals("second", waiter.join());
    Timer waited = meters.get("brace.bulkhead.wait").tag("name", "pool").timer();
    assertEquals(1, waited.count());
    assertTrue(waited.totalTime(TimeUnit.MILLISECONDS) >= 300 && waited.totalTime(TimeUnit.MILLISECONDS) <= 600,
        "waited " + waited.totalTime(TimeUnit.MILLISECONDS) + " ms");
    assertNull(calls("Client.put", "bulkhead", "pool", "rejected"), "the waiter got its permit");
  }

  @Test
  void timesASynchronousWaitForAPermitOnTheRegistrysClock() throws Exception {
    BraceMetrics.bind(brace, meters);
    ResilientCall pool = guard(LambdaCalls.builder("Client.put")
        .with(BulkheadConfig.builder("pool").maxConcurrent(1).maxWait("1s")));
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> LambdaCalls.call(pool, () -> {
      holding.countDown();
      release.await();
      return "first";
    }, null));
    holder.start();
    holding.await();
    Thread waiter = new Thread(() -> LambdaCalls.call(pool, () -> "second", null));
    waiter.start();
    // Parked in the bulkhead (its deadline is a task on the manual clock's scheduler).
    while (waiter.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    clock.advance(Duration.ofMillis(400));
    release.countDown();
    holder.join();
    waiter.join();

    assertTimed(meters.get("brace.bulkhead.wait").tag("name", "pool").timer(), 1, 400);
  }

  @Test
  void readsTheRetryBudgetsBalance() {
    Registry budgeted = Registry.builder().timeSource(clock)
        .retryBudget("shared", budget -> budget.percentCanRetry(0.5).minRetriesPerSecond(0).ttl("10s"))
        .build();
    BraceMetrics.bind(budgeted, meters);
    ResilientCall flaky = budgeted.resolve(LambdaCalls.builder("Client.flaky")
        .with(RetryConfig.builder("Client.flaky").maxAttempts(2).delay("0ms").budget("shared")).build());

    for (int i = 0; i < 4; i++) {
      LambdaCalls.call(flaky, () -> "ok", null);
    }
    assertEquals(2, gauge("brace.retry.budget.available", "shared"), "half of four calls");
    assertThrows(Throwable.class, () -> LambdaCalls.call(flaky, () -> {
      throw new IOException("down");
    }, null));
    // The failing call deposited one more call (2.5 → 2) and spent one retry.
    assertEquals(1, gauge("brace.retry.budget.available", "shared"));
  }


  @Test
  void countsHedgesStartedRefusedByTheBudgetAndWhoWon() {
    Registry brace = Registry.builder().timeSource(clock)
        .retryBudget("hedges", b -> b.percentCanRetry(0).minRetriesPerSecond(0.2).ttl("10s"))
        .build();
    BraceMetrics.bind(brace, meters);
    ResilientCall search = brace.resolve(LambdaCalls.builder("Client.search")
        .with(HedgeConfig.builder("Client.search").delay("100ms").maxHedges(1).budget("hedges")).build());
    List<CompletableFuture<Object>> attempts = new ArrayList<>();

    CompletableFuture<Object> first = LambdaCalls.callAsync(search, () -> pending(attempts), null);
    clock.advance(Duration.ofMillis(100));
    attempts.get(1).complete("hedge");
    CompletableFuture<Object> second = LambdaCalls.callAsync(search, () -> pending(attempts), null);
    clock.advance(Duration.ofMillis(100));
    attempts.get(2).complete("first");
    CompletableFuture<Object> third = LambdaCalls.callAsync(search, () -> pending(attempts), null);
    clock.advance(Duration.ofMillis(100));
    attempts.get(4).complete("first again");

    assertEquals("hedge", first.join());
    assertEquals("first", second.join());
    assertEquals("first again", third.join());
    assertEquals(2, hedges("brace.hedge.attempts", "outcome", "started"), "the budget held two hedges");
    assertEquals(1, hedges("brace.hedge.attempts", "outcome", "budget_exhausted"));
    assertEquals(1, hedges("brace.hedge.wins", "winner", "hedge"));
    assertEquals(1, hedges("brace.hedge.wins", "winner", "first"), "a call where no hedge started is no race");
  }

  private static CompletableFuture<Object> pending(List<CompletableFuture<Object>> attempts) {
    CompletableFuture<Object> attempt = new CompletableFuture<>();
    attempts.add(attempt);
    return attempt;
  }

  private double hedges(String meterName, String tag, String value) {
    Counter counter = meters.find(meterName).tags("name", "Client.search", tag, value).counter();
    return counter == null ? 0 : counter.count();
  }


  @Test
  void aKeyedFamilyIsReportedUnderItsNameAndCountedByMembers() throws Throwable {
    BraceMetrics.bind(brace, meters);
    ResilientCall tenants = guard(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("tenant").key("{id}").failureThreshold(1)));

    LambdaCalls.call(tenants, () -> CallKeys.of("acme", null), () -> "ok", null);
    LambdaCalls.call(tenants, () -> CallKeys.of("globex", null), () -> "ok", null);
    assertThrows(Throwable.class, () -> LambdaCalls.call(tenants, () -> CallKeys.of("acme", null), () -> {
      throw new IOException("down");
    }, null));
    assertThrows(Throwable.class, () -> LambdaCalls.call(tenants, () -> CallKeys.of("acme", null), () -> "ok", null));

    assertEquals(1, calls("Client.get", "circuitbreaker", "tenant", "rejected").count());
    assertEquals(1, transitions("tenant", "closed", "open"));
    assertEquals(2, meters.get("brace.keyed.instances").tags("kind", "circuitbreaker", "name", "tenant").gauge().value());
    assertNull(meters.find("brace.circuitbreaker.state").meter(), "no state series per key");
    assertTrue(meters.getMeters().stream().noneMatch(meter -> meter.getId().getTag("key") != null), "no key tag unless asked");
  }

  @Test
  void perKeyMetricsTagEachMemberWhenAskedFor() throws Throwable {
    Registry perKey = Registry.builder().timeSource(clock).systemProperties(Map.of("brace.metrics.per-key", "true")).build();
    BraceMetrics.bind(perKey, meters);
    ResilientCall tenants = perKey.resolve(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("tenant").key("{id}").failureThreshold(1)).build());

    assertThrows(Throwable.class, () -> LambdaCalls.call(tenants, () -> CallKeys.of("acme", null), () -> {
      throw new IOException("down");
    }, null));
    assertThrows(Throwable.class, () -> LambdaCalls.call(tenants, () -> CallKeys.of("acme", null), () -> "ok", null));
    LambdaCalls.call(tenants, () -> CallKeys.of("globex", null), () -> "ok", null);

    assertEquals(1, meters.get("brace.calls").tags("kind", "circuitbreaker", "name", "tenant", "key", "acme").timer().count());
    assertEquals(1, meters.get("brace.circuitbreaker.transitions").tags("name", "tenant", "key", "acme").counter().count());
    assertEquals(1, meters.get("brace.calls").tags("kind", "call", "outcome", "success", "key", "").timer().count());
  }

  @Test
  void aPerKeySwitchThatIsNeitherTrueNorFalseIsRefusedByName() {
    Registry wrong = Registry.builder().environment(Map.of("BRACE_METRICS_PER_KEY", "yes")).build();
    Exception refused = assertThrows(Exception.class, () -> BraceMetrics.bind(wrong, meters));
    assertTrue(refused.getMessage().contains("BRACE_METRICS_PER_KEY"), refused.getMessage());
  }

  @Test
  void staleAnswersAreCountedServedOrMissing() throws Throwable {
    BraceMetrics.bind(brace, meters);
    ResilientCall remembered = guard(LambdaCalls.builder("Client.recs")
        .with(dev.brace.runtime.config.StaleIfErrorConfig.builder("Client.recs").maxAge("1m")));

    LambdaCalls.call(remembered, () -> CallKeys.of(null, null, "ada"), () -> "ok", null);
    assertEquals("ok", LambdaCalls.call(remembered, () -> CallKeys.of(null, null, "ada"), () -> {
      throw new IOException("down");
    }, null));
    assertThrows(IOException.class, () -> LambdaCalls.call(remembered, () -> CallKeys.of(null, null, "bob"), () -> {
      throw new IOException("down");
    }, null));

    assertEquals(1, meters.find("brace.stale").tags("name", "Client.recs", "outcome", "served").counter().count());
    assertEquals(1, meters.find("brace.stale").tags("name", "Client.recs", "outcome", "missing").counter().count());
  }

  /** A backend whose store a test takes away and gives back: local instances, a status it is told. */
  private static final class SwitchedBackend implements Backend {
    volatile boolean reachable = true;

    @Override
    public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
      return context.localRateLimiter(config);
    }

    @Override
    public CircuitBreakerInstance circuitBreaker(
        CircuitBreakerConfig config, BackendContext context) {
      return context.localCircuitBreaker(config);
    }

    @Override
    public Optional<BackendStatus> status() {
      List<BackendStatus.Outage> outages = reachable
          ? List.of()
          : List.of(new BackendStatus.Outage(null, Instant.now(), "gone"));
      return Optional.of(new BackendStatus(outages, BackendStatus.LOCAL));
    }
  }

  @Test
  void eachBackendHasAnAvailabilityGaugeReadAtEachScrape() {
    SwitchedBackend shared = new SwitchedBackend();
    Registry withBackends = Registry.builder()
        .timeSource(clock)
        .backend("shared", shared)
        .backend("silent", new Backend() {
          @Override
          public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
            return context.localRateLimiter(config);
          }

          @Override
          public CircuitBreakerInstance circuitBreaker(
              CircuitBreakerConfig config, BackendContext context) {
            return context.localCircuitBreaker(config);
          }
        })
        .build();
    BraceMetrics.bind(withBackends, meters);

    Gauge available = meters.get("brace.backend.available").tag("name", "shared").gauge();
    assertEquals(1.0, available.value());
    shared.reachable = false;
    assertEquals(0.0, available.value(), "an outage");
    shared.reachable = true;
    assertEquals(1.0, available.value());
    assertTrue(Double.isNaN(meters.get("brace.backend.available").tag("name", "silent").gauge().value()),
        "a backend that cannot tell");
  }
}
