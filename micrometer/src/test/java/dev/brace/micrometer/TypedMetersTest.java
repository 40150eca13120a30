package dev.brace.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.Kind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The typed path's meters themselves, fed directly with primitive arguments as the runtime feeds
 * them: which meter each report lands in, with which tags and values, and that a series appears only
 * with its first sample. Then through a bound registry: a call allocates nothing, and two bindings
 * each count.
 */
class TypedMetersTest {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final MeterBook book = new MeterBook(meters, false);

  private Timer timer(String name, String... tags) {
    Timer timer = meters.find(name).tags(tags).timer();
    assertTrue(timer != null, name + " " + List.of(tags) + " in " + ids());
    return timer;
  }

  private double count(String name, String... tags) {
    Counter counter = meters.find(name).tags(tags).counter();
    assertTrue(counter != null, name + " " + List.of(tags) + " in " + ids());
    return counter.count();
  }

  private List<String> ids() {
    return meters.getMeters().stream().map(meter -> meter.getId().toString()).sorted().collect(Collectors.toList());
  }

  private static void assertSamples(Timer timer, long count, long totalNanos) {
    assertEquals(count, timer.count(), timer.getId().toString());
    assertEquals(totalNanos, (long) timer.totalTime(TimeUnit.NANOSECONDS), timer.getId().toString());
  }

  @Test
  void aCallsAttemptsAndEndsLandInItsTimersByOutcomeAndDecidingInstance() {
    CallMeters call = new CallMeters(book, "Api.get");
    assertEquals(2, meters.getMeters().size(), "both attempt timers exist once the call reports: " + ids());

    call.attemptSucceeded(3_000);
    call.attemptFailed(5_000);
    call.attemptFailed(7_000);
    call.succeeded(4_000);
    call.failed(20_000);
    call.rejected(Kind.CIRCUITBREAKER, "api", 100);
    call.rejected(Kind.RATELIMIT, "quota[acme]", 200);
    call.rejected(Kind.RATELIMIT, "quota[globex]", 300);
    call.rejected(Kind.BULKHEAD, "pool", 400);
    call.timedOut("Api.get", 1_000_000);
    call.fellBack("Api.get", 2_000_000);

    assertSamples(timer("brace.attempts", "call", "Api.get", "outcome", "success"), 1, 3_000);
    assertSamples(timer("brace.attempts", "call", "Api.get", "outcome", "failure"), 2, 12_000);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "call", "name", "Api.get", "outcome", "success"), 1, 4_000);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "call", "name", "Api.get", "outcome", "failure"), 1, 20_000);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "circuitbreaker", "name", "api", "outcome", "rejected"), 1, 100);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "ratelimit", "name", "quota", "outcome", "rejected"), 2, 500);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "bulkhead", "name", "pool", "outcome", "rejected"), 1, 400);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "timeout", "name", "Api.get", "outcome", "timeout"), 1, 1_000_000);
    assertSamples(timer("brace.calls", "call", "Api.get", "kind", "fallback", "name", "Api.get", "outcome", "fallback"), 1, 2_000_000);
    assertEquals(9, meters.getMeters().size(), "a family's members share its series: " + ids());
    assertEquals(Tags.of("call", "Api.get", "kind", "call", "name", "Api.get", "outcome", "success"),
        Tags.of(timer("brace.calls", "outcome", "success").getId().getTags()), "exactly these tags");
  }

  @Test
  void anInstancesReportsLandInItsCountersAndTimersEachMadeOnItsFirstSample() {
    InstanceMeters breaker = new InstanceMeters(book, Kind.CIRCUITBREAKER, "api");
    InstanceMeters limiter = new InstanceMeters(book, Kind.RATELIMIT, "quota");
    InstanceMeters bulkhead = new InstanceMeters(book, Kind.BULKHEAD, "pool");
    InstanceMeters retry = new InstanceMeters(book, Kind.RETRY, "Api.get");
    InstanceMeters hedge = new InstanceMeters(book, Kind.HEDGE, "Api.search");
    InstanceMeters timeout = new InstanceMeters(book, Kind.TIMEOUT, "Api.slow");
    InstanceMeters stale = new InstanceMeters(book, Kind.STALEIFERROR, "Api.recs");
    assertEquals(List.of(), ids(), "no series before anything happened");

    breaker.rejected();
    breaker.rejected();
    breaker.transitioned(CircuitState.CLOSED, CircuitState.OPEN);
    breaker.transitioned(CircuitState.OPEN, CircuitState.HALF_OPEN);
    breaker.transitioned(CircuitState.HALF_OPEN, CircuitState.OPEN);
    breaker.transitioned(CircuitState.CLOSED, CircuitState.OPEN);
    limiter.rejected();
    limiter.waited(1_500);
    bulkhead.waited(2_500);
    bulkhead.waited(500);
    retry.attemptFailed(true);
    retry.attemptFailed(true);
    retry.attemptFailed(false);
    hedge.hedgeStarted();
    hedge.hedgeBudgetExhausted();
    hedge.hedgeWon(true);
    hedge.hedgeWon(false);
    hedge.hedgeWon(false);
    timeout.timedOut();
    stale.staleServed();
    stale.staleMissing();
    stale.staleMissing();

    assertEquals(2, count("brace.rejections", "kind", "circuitbreaker", "name", "api"));
    assertEquals(1, count("brace.rejections", "kind", "ratelimit", "name", "quota"));
    assertEquals(2, count("brace.circuitbreaker.transitions", "name", "api", "from", "closed", "to", "open"));
    assertEquals(1, count("brace.circuitbreaker.transitions", "name", "api", "from", "open", "to", "half_open"));
    assertEquals(1, count("brace.circuitbreaker.transitions", "name", "api", "from", "half_open", "to", "open"));
    assertSamples(timer("brace.ratelimit.wait", "name", "quota"), 1, 1_500);
    assertSamples(timer("brace.bulkhead.wait", "name", "pool"), 2, 3_000);
    assertEquals(2, count("brace.retry.attempts", "name", "Api.get", "outcome", "retried"));
    assertEquals(1, count("brace.retry.attempts", "name", "Api.get", "outcome", "exhausted"));
    assertEquals(1, count("brace.hedge.attempts", "name", "Api.search", "outcome", "started"));
    assertEquals(1, count("brace.hedge.attempts", "name", "Api.search", "outcome", "budget_exhausted"));
    assertEquals(1, count("brace.hedge.wins", "name", "Api.search", "winner", "first"));
    assertEquals(2, count("brace.hedge.wins", "name", "Api.search", "winner", "hedge"));
    assertEquals(1, count("brace.timeouts", "name", "Api.slow"));
    assertEquals(1, count("brace.stale", "name", "Api.recs", "outcome", "served"));
    assertEquals(2, count("brace.stale", "name", "Api.recs", "outcome", "missing"));
    assertEquals(16, meters.getMeters().size(), ids().toString());
    assertNull(meters.find("brace.bulkhead.wait").tag("name", "quota").timer(), "a limiter's wait is not a bulkhead's");
  }

  @Test
  void aKeyedFamilysMembersShareItsMetersUnlessPerKeyMetricsAreAskedFor() {
    new InstanceMeters(book, Kind.CIRCUITBREAKER, "tenant[acme]").rejected();
    new InstanceMeters(book, Kind.CIRCUITBREAKER, "tenant[globex]").rejected();
    assertEquals(2, count("brace.rejections", "name", "tenant"));
    assertEquals(1, meters.getMeters().size());

    SimpleMeterRegistry perKeyMeters = new SimpleMeterRegistry();
    MeterBook perKey = new MeterBook(perKeyMeters, true);
    new InstanceMeters(perKey, Kind.CIRCUITBREAKER, "tenant[acme]").rejected();
    new InstanceMeters(perKey, Kind.CIRCUITBREAKER, "tenant[globex]").rejected();
    new CallMeters(perKey, "Api.get").succeeded(10);
    assertEquals(1, perKeyMeters.get("brace.rejections").tags("name", "tenant", "key", "acme").counter().count());
    assertEquals(1, perKeyMeters.get("brace.rejections").tags("name", "tenant", "key", "globex").counter().count());
    assertEquals(1, perKeyMeters.get("brace.calls").tags("outcome", "success", "key", "").timer().count());
  }

  @Test
  void theBindingResolvesOneHandlePerCallNameAndOnePerInstanceFamily() throws Exception {
    Registry brace = Registry.builder().build();
    BraceMetrics.bind(brace, meters);
    Stack<String> tenants = Stack.<String>builder("Api.tenant")
        .circuitBreaker("tenant", b -> b.failureThreshold(1).key("{tenant}"))
        .build(brace);
    Callable<String> down = () -> {
      throw new IOException("down");
    };
    for (String tenant : List.of("acme", "globex")) {
      try {
        tenants.call(tenant, down);
      } catch (IOException expected) {
        // opens this tenant's breaker
      }
    }
    assertEquals(2, count("brace.circuitbreaker.transitions", "name", "tenant", "from", "closed", "to", "open"));
    Meter calls = timer("brace.calls", "outcome", "failure");
    assertEquals(2, ((Timer) calls).count());
  }

  /** Retry, breaker, limiter and bulkhead, as the benchmarks measure them; room for every test thread. */
  private static Stack<String> fourPatterns(Registry brace) {
    return Stack.<String>builder("Api.call")
        .retry(r -> r.maxAttempts(3))
        .circuitBreaker("api", b -> b.failureThreshold(5))
        .rateLimit("api", l -> l.permits(1_000_000_000).per("1s"))
        .bulkhead("api", b -> b.maxConcurrent(100))
        .build(brace);
  }

  @Test
  void withBraceMetricsBoundACallAllocatesNothing() throws Exception {
    Registry brace = Registry.builder().build();
    BraceMetrics.bind(brace, meters);
    Stack<String> stack = fourPatterns(brace);
    Callable<String> ok = () -> "ok";
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    int calls = 20_000;
    for (int i = 0; i < calls; i++) {
      stack.call(ok);
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < calls; i++) {
      stack.call(ok);
    }
    long bytes = threads.getCurrentThreadAllocatedBytes() - before;

    assertEquals(0, bytes / calls, "bytes per call; " + bytes + " in all");
    assertEquals(2L * calls, timer("brace.calls", "outcome", "success").count());
    assertEquals(2L * calls, timer("brace.attempts", "outcome", "success").count());
  }

  @Test
  void callsOnManyThreadsAreEachCountedOnceFromTheirFirstReportOn() throws Exception {
    Registry brace = Registry.builder().build();
    BraceMetrics.bind(brace, meters);
    Stack<String> stack = fourPatterns(brace);
    int threads = 4;
    int calls = 5_000;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        running.add(pool.submit(() -> {
          // All at once: the first reports race to resolve the call's handle and register its meters.
          start.await();
          for (int i = 0; i < calls; i++) {
            stack.call(() -> "ok");
          }
          return null;
        }));
      }
      for (Future<?> thread : running) {
        thread.get(1, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertEquals((long) threads * calls, timer("brace.calls", "outcome", "success").count());
    assertEquals((long) threads * calls, timer("brace.attempts", "outcome", "success").count());
    assertEquals(1, meters.find("brace.calls").timers().size(), "one series, registered once: " + ids());
  }

  @Test
  void twoBindingsEachCountAndClosingOneLeavesTheOther() throws Exception {
    Registry brace = Registry.builder().build();
    SimpleMeterRegistry other = new SimpleMeterRegistry();
    AutoCloseable first = BraceMetrics.bind(brace, meters);
    BraceMetrics.bind(brace, other);
    Stack<String> stack = Stack.<String>builder("Api.call").retry(r -> r.maxAttempts(2)).build(brace);

    stack.call(() -> "ok");
    first.close();
    stack.call(() -> "ok");

    assertNull(meters.find("brace.calls").meter(), "the closed binding removed its meters");
    Timer kept = other.get("brace.calls").tags("outcome", "success").timer();
    assertEquals(2, kept.count());
    assertSame(kept, other.get("brace.calls").tags("outcome", "success").timer());
  }
}
