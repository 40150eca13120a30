package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Fault injection configured under the breaker's name: the retry retries the injected faults, the
 * breaker counts them and opens, the fallback answers the last one, and the dependency is never
 * called. Then, reconfigured live, an injected latency past the timeout is cut short by it on every
 * attempt, one below it only delays a call that then reaches the dependency, and a name switched off
 * injects nothing. Fault injection has no annotation, so the annotation layer does not apply; the
 * switch ({@code brace.chaos.enabled}) is a system property in every cell. The {@code Mono} and
 * {@code Flux} forms take the same faults and latencies at each attempt, before the first element.
 */
final class FaultInjected extends Scenario {
  static final String BREAKER = "chaos-breaker";
  private static final String FAULT = IllegalStateException.class.getName();

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @CircuitBreaker(name = BREAKER, failureThreshold = 3, resetTimeout = "1m")
  @Timeout("1s")
  interface Annotated extends Shape {
    @Override
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux")
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow")
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Exception cause) {
      return "fallback";
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Exception cause) {
      return CompletableFuture.completedFuture("fallback");
    }

    default Flux<String> fallbackFlux(String key, String input, Exception cause) {
      return Flux.just("fallback");
    }

    default Flow<String> fallbackFlow(String key, String input, Exception cause) {
      return FlowKt.flowOf("fallback");
    }
  }

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 3, resetTimeout = "1m")
  @Timeout("1s")
  interface Decoy extends Shape {
    @Override
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux")
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow")
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Exception cause) {
      return "fallback";
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Exception cause) {
      return CompletableFuture.completedFuture("fallback");
    }

    default Flux<String> fallbackFlux(String key, String input, Exception cause) {
      return Flux.just("fallback");
    }

    default Flow<String> fallbackFlow(String key, String input, Exception cause) {
      return FlowKt.flowOf("fallback");
    }
  }

  FaultInjected() {
    super("fault injection: retried, counted, answered, timed out", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  String annotationsCannot() {
    return "fault injection has no annotation: a rehearsal is configuration, never code";
  }

  @Override
  Map<String, String> systemProperties() {
    return Map.of("brace.chaos.enabled", "true");
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(3).resetTimeout("1m"))
        .timeout(t -> t.duration("1s"))
        .fallback(cause -> {
          script.fallbackCauses.add(cause);
          return "fallback";
        });
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.chaos(decoy(BREAKER), c -> c.faultRate(1).fault(IllegalStateException.class));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("CHAOS", decoy(BREAKER), "FAULT_RATE"), "1", env("CHAOS", decoy(BREAKER), "FAULT"), FAULT);
  }

  @Override
  void run(Cell cell) throws Exception {
    String breaker = cell.name(BREAKER);

    assertEquals("fallback", cell.call("v"));
    assertEquals(0, cell.script.invocations.get(), "an injected fault never calls the dependency");
    Throwable cause = cell.script.fallbackCauses.get(0);
    assertEquals(IllegalStateException.class, cause.getClass());
    assertTrue(cause.getMessage().startsWith("injected by Brace's fault injection '" + breaker + "'"), cause.getMessage());
    assertEquals(CircuitState.OPEN, cell.state(breaker), "three injected faults are three counted failures");
    if (cell.listening) {
      List<Event> injected = cell.events("chaos.injected");
      assertEquals(3, injected.size(), "one per attempt");
      assertEquals(Map.of("call", cell.callName, "kind", "circuitbreaker", "what", "fault", "fault", FAULT),
          injected.get(0).attributes());
      assertEquals(3, cell.events("retry.attempt_failed").size());
    }
    cell.registry.circuitBreaker(breaker).reset();

    cell.reconfigure(Map.of(env("CHAOS", breaker, "FAULT_RATE"), "0",
        env("CHAOS", breaker, "LATENCY"), "5s", env("CHAOS", breaker, "LATENCY_RATE"), "1"));
    long start = cell.clock.nanoTime();
    assertEquals("fallback", cell.call("v"));
    assertEquals(TimeoutExceededException.class, cell.script.fallbackCauses.get(1).getClass());
    Duration took = cell.since(start);
    assertTrue(took.compareTo(Duration.ofSeconds(3)) >= 0 && took.compareTo(Duration.ofSeconds(5)) < 0,
        "three attempts, each cut off at its 1 s deadline: took " + took);
    assertEquals(0, cell.script.invocations.get(), "a latency cut short never reaches the dependency");
    assertEquals(CircuitState.OPEN, cell.state(breaker), "three timeouts are three counted failures");
    assertTrue(!Thread.currentThread().isInterrupted(), "the deadline's interrupt is cleared");
    cell.registry.circuitBreaker(breaker).reset();

    // Each reconfiguration is laid over the cell's first settings, which inject a fault: its rate goes to 0 again.
    cell.reconfigure(Map.of(env("CHAOS", breaker, "FAULT_RATE"), "0",
        env("CHAOS", breaker, "LATENCY"), "200ms", env("CHAOS", breaker, "LATENCY_RATE"), "1"));
    start = cell.clock.nanoTime();
    assertEquals("v1", cell.call("v"), () -> "a delayed call reaches the dependency, whose result is the call's;"
        + " the fallback was given " + cell.script.fallbackCauses);
    assertTrue(cell.since(start).compareTo(Duration.ofMillis(200)) >= 0, "took " + cell.since(start));

    cell.reconfigure(Map.of(env("CHAOS", breaker, "ENABLED"), "false"));
    int injectedBefore = cell.events("chaos.injected").size();
    assertEquals("v2", cell.call("v"));
    assertEquals(injectedBefore, cell.events("chaos.injected").size(), "switched off: nothing injected");
    assertEquals(2, cell.script.invocations.get());
  }
}
