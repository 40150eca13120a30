package dev.brace.runtime.internal.event;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.CallKeys;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each event fires once, at the decision, with the attributes it promises (manual time). */
class EventAttributesTest {
  private static final String SECRET_URL = "GET https://u:p@host/x?api_key=abc failed";
  private static final String REDACTED_URL = "GET https://host/x?api_key=REDACTED failed";

  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();

  EventAttributesTest() {
    registry.subscribe(events::add);
  }

  private ResilientCall guard(CallDefinition.Builder definition) {
    return registry.resolve(definition.build());
  }

  private Object failWith(ResilientCall guard, String message) {
    return assertThrows(Throwable.class, () -> LambdaCalls.call(guard, () -> {
      throw new IOException(message);
    }, null));
  }

  private List<String> kinds() {
    return events.stream().map(Event::kind).collect(Collectors.toList());
  }

  private Event only(String kind) {
    List<Event> matching = events.stream().filter(e -> e.kind().equals(kind)).collect(Collectors.toList());
    assertEquals(1, matching.size(), kind + " fires once; saw " + kinds());
    return matching.get(0);
  }

  @Test
  void retryReportsEveryFailedAttemptThenExhaustion() {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(RetryConfig.builder("reads").maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE)));

    failWith(guard, SECRET_URL);

    assertEquals(List.of("retry.attempt_failed", "retry.attempt_failed", "retry.exhausted"), kinds());
    Event first = events.get(0);
    assertEquals("reads", first.instance());
    assertEquals(Map.of("call", "Client.get", "attempt", 1, "delay_ms", 100L,
        "exception", "java.io.IOException", "message", REDACTED_URL), first.attributes());
    assertFalse(events.get(1).attributes().containsKey("delay_ms"), "no retry follows the last attempt");
    assertEquals(Map.of("call", "Client.get", "attempts", 2, "reason", "attempts",
        "exception", "java.io.IOException", "message", REDACTED_URL), events.get(2).attributes());
  }

  @Test
  void anEmptyBudgetReportsBudgetExhausted() {
    Registry tight = Registry.builder().timeSource(clock)
        .retryBudget("shared", b -> b.percentCanRetry(0).minRetriesPerSecond(0)).build();
    tight.subscribe(events::add);
    ResilientCall guard = tight.resolve(LambdaCalls.builder("Client.get")
        .with(RetryConfig.builder("Client.get").maxAttempts(3).budget("shared")).build());

    failWith(guard, "down");

    Event exhausted = only("retry.budget_exhausted");
    assertEquals("shared", exhausted.attributes().get("budget"));
    assertEquals("budget", exhausted.attributes().get("reason"));
    assertEquals(1, exhausted.attributes().get("attempts"));
  }

  @Test
  void circuitReportsEveryTransitionWithFromAndTo() {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("backend").failureThreshold(2).resetTimeout("10s")));
    failWith(guard, "one");
    assertEquals(List.of(), kinds(), "one failure below the threshold says nothing");
    failWith(guard, SECRET_URL);

    Event opened = only("circuit.opened");
    assertEquals("backend", opened.instance());
    assertEquals(Map.of("failure_threshold", 2, "failures", 2, "exception", "java.io.IOException",
        "message", REDACTED_URL, "retry_after_ms", 10_000L, "from", "CLOSED", "to", "OPEN"), opened.attributes());

    clock.advance(Duration.ofSeconds(4));
    assertThrows(CircuitOpenException.class, () -> LambdaCalls.call(guard, () -> "x", null));
    assertEquals(Map.of("state", "OPEN", "retry_after_ms", 6_000L), only("circuit.rejected").attributes());

    clock.advance(Duration.ofSeconds(6));
    events.clear();
    assertEquals("x", assertDoesNotThrowCall(guard));
    assertEquals(List.of("circuit.half_open", "circuit.closed"), kinds());
    assertEquals(Map.of("from", "OPEN", "to", "HALF_OPEN"), events.get(0).attributes());
    assertEquals(Map.of("from", "HALF_OPEN", "to", "CLOSED"), events.get(1).attributes());
  }

  @Test
  void aRateModeOpeningCarriesTheRateAndTheWindow() {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get").with(CircuitBreakerConfig.builder("rated").failureRate(0.5).windowCalls(10).minimumCalls(4)));
    assertDoesNotThrowCall(guard);
    assertDoesNotThrowCall(guard);
    failWith(guard, "a");
    failWith(guard, "b");

    Map<String, Object> attributes = only("circuit.opened").attributes();
    assertEquals(0.5, attributes.get("failure_rate"));
    assertEquals(0.5, attributes.get("failure_rate_threshold"));
    assertEquals(4L, attributes.get("observed_calls"));
    assertEquals("last 10 calls", attributes.get("window"));
    assertFalse(attributes.containsKey("failure_threshold"));
  }

  @Test
  void aKeyedBreakerNamesItsKey() {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("tenant").key("{id}").failureThreshold(1)));
    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> CallKeys.of("acme", null), () -> {
      throw new IOException("down");
    }, null));

    assertEquals("tenant[acme]", only("circuit.opened").instance());
  }

  @Test
  void limiterReportsRefusalsAndWaits() {
    ResilientCall refusing = guard(LambdaCalls.builder("Client.get")
        .with(RateLimitConfig.builder("quota").permits(1).per("1s").burst(1)));
    assertDoesNotThrowCall(refusing);
    assertThrows(RateLimitedException.class, () -> LambdaCalls.call(refusing, () -> "x", null));
    assertEquals(Map.of("retry_after_ms", 1000L), only("ratelimit.rejected").attributes());

    ResilientCall waiting = guard(LambdaCalls.builder("Client.get")
        .with(RateLimitConfig.builder("patient").permits(1).per("1s").burst(1).maxWait("2s")));
    assertDoesNotThrowCall(waiting);
    assertDoesNotThrowCall(waiting);
    assertEquals(Map.of("waited_ms", 1000L, "waited_ns", 1_000_000_000L), only("ratelimit.waited").attributes());
  }

  @Test
  void bulkheadReportsARefusal() {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(BulkheadConfig.builder("pool").maxConcurrent(1)));
    CompletableFuture<Object> held = new CompletableFuture<>();
    CompletableFuture<Object> holder = LambdaCalls.callAsync(guard, () -> held, null);
    assertThrows(BulkheadFullException.class, () -> LambdaCalls.call(guard, () -> "x", null));
    held.complete("done");
    assertEquals("done", holder.join());

    assertEquals(Map.of("max_concurrent", 1, "in_flight", 1, "criticality", "DEFAULT", "limit", 1),
        only("bulkhead.rejected").attributes());
  }

  @Test
  void timeoutAndFallbackNameTheCall() throws Throwable {
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(TimeoutConfig.builder("Client.get").duration("1s"))
        .with(FallbackConfig.builder("Client.get")));

    Object answer = LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofSeconds(5));
      return "late";
    }, failure -> "cached");

    assertEquals("cached", answer);
    assertEquals(Map.of("call", "Client.get", "timeout_ms", 1000L, "mode", "INTERRUPT",
        "exception", TimeoutExceededException.class.getName(),
        "message", new TimeoutExceededException("Client.get", Duration.ofSeconds(1)).getMessage()),
        only("timeout.exceeded").attributes());
    assertEquals(Map.of("call", "Client.get", "exception", TimeoutExceededException.class.getName(),
        "message", new TimeoutExceededException("Client.get", Duration.ofSeconds(1)).getMessage()),
        only("fallback.used").attributes());
  }

  @Test
  void listenerOnlyKindsReachOnlyMetricListeners() throws Throwable {
    List<Event> metrics = new CopyOnWriteArrayList<>();
    registry.subscribeForMetrics(metrics::add);
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("backend"))
        .with(BulkheadConfig.builder("pool")));

    assertDoesNotThrowCall(guard);
    failWith(guard, SECRET_URL);

    assertEquals(List.of(), kinds(), "ordinary listeners see no per-call events");
    List<String> metricKinds = metrics.stream().map(Event::kind).collect(Collectors.toList());
    assertEquals(List.of("instance.created", "instance.created", "call.succeeded", "call.ended", "call.failed", "call.ended"),
        metricKinds);
    assertEquals(Map.of("kind", "circuitbreaker", "keyed", false), metrics.get(0).attributes());
    assertEquals(Map.of("duration_ns", 0L, "circuitbreaker", "backend", "bulkhead", "pool"), metrics.get(2).attributes());
    assertEquals(Map.of("outcome", "success", "duration_ns", 0L), metrics.get(3).attributes());
    assertEquals(Map.of("duration_ns", 0L, "circuitbreaker", "backend", "bulkhead", "pool",
        "exception", "java.io.IOException", "message", REDACTED_URL), metrics.get(4).attributes());
    assertEquals(Map.of("outcome", "failure", "duration_ns", 0L), metrics.get(5).attributes());
  }

  @Test
  void aCallTheFallbackAnswersEndsAsAnsweredByThatFallback() throws Throwable {
    List<Event> metrics = new CopyOnWriteArrayList<>();
    registry.subscribeForMetrics(metrics::add);
    ResilientCall guard = guard(LambdaCalls.builder("Client.get")
        .with(FallbackConfig.builder("defaults")));

    assertEquals("cached", LambdaCalls.call(guard, () -> {
      throw new IOException("down");
    }, failure -> "cached"));

    Event ended = metrics.stream().filter(e -> e.kind().equals("call.ended")).findFirst().orElseThrow();
    assertEquals("fallback", ended.attributes().get("outcome"));
    assertEquals("fallback", ended.attributes().get("by_kind"));
    assertEquals("defaults", ended.attributes().get("by"), "the fallback's own name");
  }

  private static Object assertDoesNotThrowCall(ResilientCall guard) {
    try {
      return LambdaCalls.call(guard, () -> "x", null);
    } catch (Throwable unexpected) {
      throw new AssertionError("the call should pass", unexpected);
    }
  }
}
