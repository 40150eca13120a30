package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.Retry;
import java.io.IOException;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Registry#reconfigure}: new outer layers reach live instances and calls, keeping state; all or nothing. */
class ReconfigureTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final List<Event> events = new ArrayList<>();
  private final Registry registry = registry(Map.of());

  private Registry registry(Map<String, String> environment) {
    Registry built = Registry.builder().timeSource(clock).environment(environment).systemProperties(Map.of()).build();
    built.subscribe(event -> {
      synchronized (events) {
        events.add(event);
      }
    });
    return built;
  }

  private static void fail(Stack<String> stack) {
    assertThrows(Exception.class, () -> stack.call(() -> {
      throw new IOException("down");
    }));
  }

  @Test
  void anOpenBreakerStaysOpenWithItsCooldownAndTheNewThresholdsApplyFromTheNextOutcome() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").circuitBreaker("api", b -> b.failureThreshold(2).resetTimeout("10s")).build(registry);
    fail(stack);
    fail(stack);
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state());

    registry.reconfigure(Map.of(
        "BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "4",
        "BRACE_CIRCUITBREAKER_API_RESET_TIMEOUT", "1s"), Map.of());

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state());
    assertEquals(Optional.of(Duration.ofSeconds(10)), registry.circuitBreaker("api").retryAfter(), "the cooldown it opened with");
    clock.advance(Duration.ofSeconds(10));
    assertEquals("ok", stack.call(() -> "ok"));
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("api").state());
    for (int i = 0; i < 3; i++) {
      fail(stack);
    }
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("api").state(), "three failures are below the new threshold");
    fail(stack);
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state());
    assertEquals(Optional.of(Duration.ofSeconds(1)), registry.circuitBreaker("api").retryAfter(), "the new cooldown from the next opening");
  }

  @Test
  void aClosedBreakerKeepsItsCountOfFailures() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").circuitBreaker("api", b -> b.failureThreshold(5)).build(registry);
    fail(stack);
    fail(stack);
    registry.reconfigure(Map.of("BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "3"), Map.of());
    fail(stack);
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state(), "two counted before the change, one after");
  }

  @Test
  void aLimiterKeepsItsTokensCappedAtTheNewBurst() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").rateLimit("api", r -> r.permits(10).per("1s")).build(registry);
    for (int i = 0; i < 7; i++) {
      stack.call(() -> "ok");
    }
    assertEquals(3, registry.rateLimiter("api").availablePermits());

    registry.reconfigure(Map.of("BRACE_RATELIMIT_API_PERMITS", "100", "BRACE_RATELIMIT_API_BURST", "50"), Map.of());
    assertEquals(3, registry.rateLimiter("api").availablePermits(), "the tokens it had, at the new rate from now");
    clock.advance(Duration.ofMillis(10));
    assertEquals(4, registry.rateLimiter("api").availablePermits());

    registry.reconfigure(Map.of("BRACE_RATELIMIT_API_PERMITS", "100", "BRACE_RATELIMIT_API_BURST", "2"), Map.of());
    assertEquals(2, registry.rateLimiter("api").availablePermits(), "capped at the new burst");
    stack.call(() -> "ok");
    stack.call(() -> "ok");
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "refused"));
  }

  @Test
  void aBulkheadKeepsItsCallsInFlightAndALowerLimitAppliesToAdmissions() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").bulkhead("api", b -> b.maxConcurrent(2)).build(registry);
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<String> second = new CompletableFuture<>();
    CompletableFuture<String> one = stack.callAsync(() -> first);
    CompletableFuture<String> two = stack.callAsync(() -> second);
    assertEquals(2, registry.bulkhead("api").inFlight());

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MAX_CONCURRENT", "1"), Map.of());
    assertEquals(2, registry.bulkhead("api").inFlight(), "calls in flight are kept");
    assertEquals(0, registry.bulkhead("api").available());
    first.complete("a");
    assertEquals("a", one.get());
    assertThrows(BulkheadFullException.class, () -> stack.call(() -> "refused"), "one in flight is the new limit");
    second.complete("b");
    assertEquals("b", two.get());
    assertEquals(0, registry.bulkhead("api").inFlight());
    assertEquals(1, registry.bulkhead("api").available(), "no permit lost or made");

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MAX_CONCURRENT", "3"), Map.of());
    assertEquals(3, registry.bulkhead("api").available());
  }

  @Test
  void retryAndTimeoutApplyFromTheNextCall() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    Stack<String> stack = Stack.<String>builder("calls").retry(r -> r.maxAttempts(2).delay("1ms").jitter(Retry.Jitter.NONE)).build(registry);
    assertThrows(IOException.class, () -> stack.call(() -> {
      attempts.incrementAndGet();
      throw new IOException("down");
    }));
    assertEquals(2, attempts.getAndSet(0));

    registry.reconfigure(Map.of("BRACE_RETRY_CALLS_MAX_ATTEMPTS", "4"), Map.of());
    assertThrows(IOException.class, () -> stack.call(() -> {
      attempts.incrementAndGet();
      throw new IOException("down");
    }));
    assertEquals(4, attempts.get());
  }

  @Test
  void aCallThatHasStartedFinishesOnTheSettingsItStartedWith() throws Exception {
    Registry real = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    Stack<String> stack = Stack.<String>builder("calls").retry(r -> r.maxAttempts(2).delay("1ms")).build(real);
    CountDownLatch inFirstAttempt = new CountDownLatch(1);
    CountDownLatch reconfigured = new CountDownLatch(1);
    AtomicInteger attempts = new AtomicInteger();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<?> call = caller.submit(() -> assertThrows(IOException.class, () -> stack.call(() -> {
        if (attempts.incrementAndGet() == 1) {
          inFirstAttempt.countDown();
          assertTrue(reconfigured.await(10, TimeUnit.SECONDS));
        }
        throw new IOException("down");
      })));
      assertTrue(inFirstAttempt.await(10, TimeUnit.SECONDS));
      real.reconfigure(Map.of("BRACE_RETRY_CALLS_MAX_ATTEMPTS", "5"), Map.of());
      reconfigured.countDown();
      call.get(10, TimeUnit.SECONDS);
      assertEquals(2, attempts.get(), "the call that had started keeps maxAttempts = 2");
    } finally {
      caller.shutdownNow();
    }
  }

  @Test
  void oneRefusedSettingRefusesAllAndNamesEveryBadKey() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls")
        .circuitBreaker("api", b -> b.failureThreshold(5))
        .bulkhead("api", b -> b.maxConcurrent(2))
        .build(registry);
    stack.call(() -> "ok");

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.reconfigure(
        Map.of("BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "7",
            "BRACE_BULKHEAD_API_MAX_CONCURRENT", "zero",
            "BRACE_CIRCUITBREAKER_API_FAILURE_RATE", "2.5"),
        Map.of()));

    String message = refused.getMessage();
    assertTrue(message.startsWith("[brace:reconfiguration-refused]"), message);
    assertTrue(message.contains("BRACE_BULKHEAD_API_MAX_CONCURRENT=zero"), message);
    assertTrue(message.contains("BRACE_CIRCUITBREAKER_API_FAILURE_RATE=2.5"), message);
    assertFalse(message.contains("FAILURE_THRESHOLD"), message);
    assertEquals("5", registry.settings("circuitbreaker", "api").get("failureThreshold"), "the valid change was not applied either");
    assertEquals("2", registry.settings("bulkhead", "api").get("maxConcurrent"));
    assertTrue(events.stream().noneMatch(event -> event.kind().equals("config.changed")));
  }

  @Test
  void eachChangedPropertyIsOneEvent() throws Exception {
    // Kept reachable through the reconfiguration: the registry holds wrappers weakly, and the retry
    // of a stack already collected is not resolved again, so it has no change to report.
    Stack<String> calls = Stack.<String>builder("calls")
        .retry(r -> r.maxAttempts(2))
        .circuitBreaker("api", b -> b.failureThreshold(5))
        .build(registry);
    calls.call(() -> "ok");

    registry.reconfigure(Map.of("BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "7"),
        Map.of("brace.retry.calls.delay", "250ms"));
    Reference.reachabilityFence(calls);

    List<Map<String, Object>> changed = new ArrayList<>();
    List<String> instances = new ArrayList<>();
    events.stream().filter(event -> event.kind().equals("config.changed")).forEach(event -> {
      changed.add(event.attributes());
      instances.add(event.instance());
    });
    assertEquals(List.of("calls", "api"), instances);
    assertEquals(Map.of("kind", "retry", "property", "delay", "from", "100ms", "to", "250ms"), changed.get(0));
    assertEquals(Map.of("kind", "circuitbreaker", "property", "failureThreshold", "from", "5", "to", "7"), changed.get(1));
  }

  @Test
  void switchingAnInstanceOffPassesItsPatternThroughAndOnAgainKeepsItsState() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls")
        .circuitBreaker("api", b -> b.failureThreshold(1).resetTimeout("1m"))
        .build(registry);
    fail(stack);
    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "refused"));

    registry.reconfigure(Map.of("BRACE_CIRCUITBREAKER_API_ENABLED", "false"), Map.of());
    assertEquals("through", stack.call(() -> "through"));
    assertTrue(events.stream().anyMatch(event -> event.kind().equals("config.changed")
        && event.attributes().equals(Map.of("kind", "circuitbreaker", "property", "enabled", "from", "true", "to", "false"))));

    registry.reconfigure(Map.of(), Map.of());
    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "refused"), "the breaker kept its OPEN state while off");
  }

  @Test
  void switchingBraceOffAndOnAgain() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").bulkhead("api", b -> b.maxConcurrent(1)).build(registry);
    CompletableFuture<String> held = new CompletableFuture<>();
    CompletableFuture<String> holding = stack.callAsync(() -> held);

    registry.reconfigure(Map.of("BRACE_ENABLED", "false"), Map.of());
    assertEquals("through", stack.call(() -> "through"), "no bulkhead while Brace is off");
    held.complete("done");
    assertEquals("done", holding.get());
    assertEquals(0, registry.bulkhead("api").inFlight(), "the call admitted before released its permit");

    registry.reconfigure(Map.of("BRACE_ENABLED", "true"), Map.of());
    CompletableFuture<String> again = new CompletableFuture<>();
    stack.callAsync(() -> again);
    assertThrows(BulkheadFullException.class, () -> stack.call(() -> "refused"));
    again.complete("x");
  }

  @Test
  void anInstanceSwitchedOffWhenTheRegistryWasBuiltIsCreatedWhenSwitchedOn() throws Exception {
    Registry off = registry(Map.of("BRACE_CIRCUITBREAKER_API_ENABLED", "false"));
    Stack<String> stack = Stack.<String>builder("calls").circuitBreaker("api", b -> b.failureThreshold(1)).build(off);
    fail(stack);
    assertFalse(off.names().containsKey("circuitbreaker"));

    off.reconfigure(Map.of(), Map.of());
    fail(stack);
    assertEquals(CircuitState.OPEN, off.circuitBreaker("api").state());
  }

  @Test
  void aReconfigurationThatMakesTwoSitesDisagreeIsRefused() throws Exception {
    Registry agreed = registry(Map.of("BRACE_CIRCUITBREAKER_API_FAILURE_THRESHOLD", "3"));
    Stack<String> first = Stack.<String>builder("first").circuitBreaker("api", b -> b.failureThreshold(5)).build(agreed);
    Stack<String> second = Stack.<String>builder("second").circuitBreaker("api", b -> b.failureThreshold(6)).build(agreed);

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> agreed.reconfigure(Map.of(), Map.of()));
    assertTrue(refused.getMessage().contains("[brace:name-conflict]"), refused.getMessage());
    assertEquals("3", agreed.settings("circuitbreaker", "api").get("failureThreshold"));
    first.call(() -> "still works");
    second.call(() -> "still works");
  }

  @Test
  void whatDecidesWhatAnInstanceIsCannotChangeWhileItLives() {
    Stack.<String>builder("calls").rateLimit("api", r -> r.permits(5)).build(registry);
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_RATELIMIT_API_BACKEND", "redis"), Map.of()));
    assertTrue(refused.getMessage().contains("[brace:not-live] rate limiter 'api': backend cannot change"), refused.getMessage());
  }

  @Test
  void aStrictRegistryRefusesAKeyThatConfiguresNothing() {
    Registry strict = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of())
        .strictConfiguration().build();
    Stack.<String>builder("calls").circuitBreaker("api", b -> b.failureThreshold(5)).build(strict);
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> strict.reconfigure(Map.of("BRACE_CIRCUITBREAKER_APU_FAILURE_THRESHOLD", "3"), Map.of()));
    assertTrue(refused.getMessage().contains("did you mean API?"), refused.getMessage());
  }

  @Test
  void aBadSwitchIsRefusedBeforeAnythingChanges() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").retry(r -> r.maxAttempts(2)).build(registry);
    stack.call(() -> "ok");
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.reconfigure(
        Map.of("BRACE_RETRY_CALLS_ENABLED", "maybe", "BRACE_RETRY_CALLS_MAX_ATTEMPTS", "4"), Map.of()));
    assertTrue(refused.getMessage().contains("BRACE_RETRY_CALLS_ENABLED=maybe: expected true or false"), refused.getMessage());
    assertEquals("2", registry.settings("retry", "calls").get("maxAttempts"));
  }

  @Test
  void aRetryBudgetTakesNewSettings() {
    Stack.<String>builder("calls").retry(r -> r.budget("shared")).build(registry);
    registry.reconfigure(Map.of("BRACE_RETRYBUDGET_SHARED_PERCENT_CAN_RETRY", "0.5"), Map.of());
    assertEquals("0.5", registry.settings("retrybudget", "shared").get("percentCanRetry"));
  }

  @Test
  void rememberedAnswersOutliveAReconfiguration() throws Exception {
    Stack<String> stack = Stack.<String>builder("remembering").staleIfError(s -> s.maxAge("1m")).build(registry);
    stack.call("k", () -> "remembered");

    registry.reconfigure(Map.of("BRACE_RETRY_REMEMBERING_MAX_ATTEMPTS", "1"), Map.of());
    assertEquals("remembered", stack.call("k", () -> {
      throw new IOException("down");
    }), "an unrelated change keeps what the call remembers");

    registry.reconfigure(Map.of("BRACE_STALEIFERROR_REMEMBERING_MAX_AGE", "30s"), Map.of());
    assertEquals("remembered", stack.call("k", () -> {
      throw new IOException("down");
    }), "new settings of its own carry the answers over");
    clock.advance(Duration.ofSeconds(31));
    assertThrows(IOException.class, () -> stack.call("k", () -> {
      throw new IOException("down");
    }), "judged by the new maxAge, from when it was remembered");
  }

  /** A call that times out at the dependency: a drop, which an adaptive bulkhead backs off on. */
  private static void drop(Stack<String> stack) {
    assertThrows(TimeoutExceededException.class, () -> stack.call(() -> {
      throw new TimeoutExceededException("deeper", Duration.ofMillis(10));
    }));
  }

  @Test
  void anAdaptiveBulkheadKeepsTheLimitItLearntClampedToTheNewBounds() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls")
        .bulkhead("api", b -> b.adaptive(Bulkhead.Adaptive.AIMD).minConcurrent(1).maxConcurrent(8)).build(registry);
    drop(stack);
    drop(stack);
    drop(stack);
    assertEquals(5, registry.bulkhead("api").limit(), "8, backed off three times by 0.9");

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MAX_CONCURRENT", "10"), Map.of());
    assertEquals(5, registry.bulkhead("api").limit(), "what it learnt stays within the wider bounds");
    assertEquals(10, registry.bulkhead("api").maxConcurrent());

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MIN_CONCURRENT", "6", "BRACE_BULKHEAD_API_MAX_CONCURRENT", "10"), Map.of());
    assertEquals(6, registry.bulkhead("api").limit(), "raised to the new minimum");

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MAX_CONCURRENT", "4"), Map.of());
    assertEquals(4, registry.bulkhead("api").limit(), "lowered to the new maximum");
    drop(stack);
    assertEquals(3, registry.bulkhead("api").limit(), "and it goes on learning from there");

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_MAX_CONCURRENT", "12"), Map.of());
    List<CompletableFuture<String>> held = new ArrayList<>();
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      CompletableFuture<String> answer = new CompletableFuture<>();
      held.add(answer);
      calls.add(stack.callAsync(() -> answer));
    }
    assertEquals(3, registry.bulkhead("api").inFlight());
    held.forEach(answer -> answer.complete("ok"));
    for (CompletableFuture<String> call : calls) {
      assertEquals("ok", call.get());
    }
    assertEquals(0, registry.bulkhead("api").inFlight(), "every permit of the larger bulkhead came back");
  }

  @Test
  void theSharesOfEachCriticalityFollowTheNewSettings() throws Exception {
    Stack<String> sheddable = Stack.<String>builder("calls").criticality(Criticality.Level.SHEDDABLE)
        .bulkhead("api", b -> b.maxConcurrent(10)).build(registry);
    CompletableFuture<String> pending = new CompletableFuture<>();
    for (int i = 0; i < 5; i++) {
      sheddable.callAsync(() -> pending);
    }
    assertEquals(5, registry.bulkhead("api").inFlight());
    assertThrows(BulkheadFullException.class, () -> sheddable.call(() -> "shed"), "half of 10 by default");

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_SHEDDABLE_SHARE", "0.8"), Map.of());
    for (int i = 0; i < 3; i++) {
      sheddable.callAsync(() -> pending);
    }
    assertEquals(8, registry.bulkhead("api").inFlight(), "the new share admits three more at once");
    assertThrows(BulkheadFullException.class, () -> sheddable.call(() -> "shed"));

    registry.reconfigure(Map.of("BRACE_BULKHEAD_API_SHEDDABLE_SHARE", "0.2"), Map.of());
    assertEquals(8, registry.bulkhead("api").inFlight(), "the calls admitted go on");
    assertThrows(BulkheadFullException.class, () -> sheddable.call(() -> "shed"));
  }

  @Test
  void anAdaptiveLimiterKeepsItsRateClampedToTheNewBounds() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls").rateLimit("api", r -> r.permits(100).adaptive(true)
        .minPermits(10).throttledOn(IllegalStateException.class)).build(registry);
    for (int i = 0; i < 2; i++) {
      assertThrows(IllegalStateException.class, () -> stack.call(() -> {
        throw new IllegalStateException("slow down");
      }));
    }
    assertEquals(25, registry.rateLimiter("api").currentRate(), "halved twice");

    registry.reconfigure(Map.of("BRACE_RATELIMIT_API_PERMITS", "200"), Map.of());
    assertEquals(25, registry.rateLimiter("api").currentRate(), "what it learnt stays within the wider bounds");

    registry.reconfigure(Map.of("BRACE_RATELIMIT_API_PERMITS", "20"), Map.of());
    assertEquals(20, registry.rateLimiter("api").currentRate(), "lowered to the new permits");

    clock.advance(Duration.ofSeconds(1)); // rate changes are reported at most every 100 ms
    registry.reconfigure(Map.of("BRACE_RATELIMIT_API_PERMITS", "200", "BRACE_RATELIMIT_API_MIN_PERMITS", "40"), Map.of());
    assertEquals(40, registry.rateLimiter("api").currentRate(), "raised to the new minPermits");
    synchronized (events) {
      assertTrue(events.stream().anyMatch(event -> event.kind().equals("ratelimit.rate_changed")
          && Double.valueOf(40).equals(event.attributes().get("to"))), "a clamp is a change of rate: " + events);
    }
  }

  @Test
  void switchingBetweenAFixedAndAnAdaptiveLimitOrItsAlgorithmIsNotLive() throws Exception {
    Stack.<String>builder("calls").bulkhead("api", b -> b.adaptive(Bulkhead.Adaptive.AIMD).maxConcurrent(8))
        .rateLimit("api", r -> r.permits(5)).build(registry);
    ConfigurationException toFixed = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_BULKHEAD_API_ADAPTIVE", "none"), Map.of()));
    assertTrue(toFixed.getMessage().contains("[brace:not-live] bulkhead 'api': adaptive cannot change from AIMD to NONE"),
        toFixed.getMessage());
    ConfigurationException otherAlgorithm = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_BULKHEAD_API_ADAPTIVE", "vegas"), Map.of()));
    assertTrue(otherAlgorithm.getMessage().contains("[brace:not-live] bulkhead 'api': adaptive cannot change from AIMD to VEGAS"),
        otherAlgorithm.getMessage());
    ConfigurationException toAdaptive = assertThrows(ConfigurationException.class,
        () -> registry.reconfigure(Map.of("BRACE_RATELIMIT_API_ADAPTIVE", "true"), Map.of()));
    assertTrue(toAdaptive.getMessage().contains("[brace:not-live] rate limiter 'api': adaptive cannot change from false to true"),
        toAdaptive.getMessage());
    assertEquals(8, registry.bulkhead("api").limit(), "nothing changed");
  }

  @Test
  void everySettingThatNoLongerFitsTheRetrysMaxDurationIsNamed() throws Exception {
    Stack<String> stack = Stack.<String>builder("calls")
        .retry(r -> r.maxDuration("10s"))
        .timeout(t -> t.duration("2s"))
        .rateLimit("api", r -> r.permits(10).maxWait("1s"))
        .build(registry);

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.reconfigure(
        Map.of("BRACE_TIMEOUT_CALLS_DURATION", "20s", "BRACE_RATELIMIT_API_MAX_WAIT", "30s"), Map.of()));

    assertTrue(refused.getMessage().contains("[brace:max-duration-below-timeout] stack 'calls'")
        && refused.getMessage().contains("timeout = 20s (environment BRACE_TIMEOUT_CALLS_DURATION)"), refused.getMessage());
    assertTrue(refused.getMessage().contains("[brace:max-duration-below-wait] stack 'calls'")
        && refused.getMessage().contains("rate limiter's maxWait = 30s (environment BRACE_RATELIMIT_API_MAX_WAIT)"),
        refused.getMessage());
    assertEquals("ok", stack.call(() -> "ok"), "nothing changed");
    assertEquals("2s", registry.settings("timeout", "calls").get("duration"));
  }
}
