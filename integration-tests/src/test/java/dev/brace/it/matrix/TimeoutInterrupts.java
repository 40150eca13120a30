package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HANG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * An INTERRUPT timeout bounds each attempt: the caller gets TimeoutExceededException at the
 * deadline with no interrupt left behind, an async inner future is cancelled, and the breaker
 * counts the expired attempt as a failure.
 */
final class TimeoutInterrupts extends Scenario {
  static final String BREAKER = "slow-breaker";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @CircuitBreaker(name = BREAKER, failureThreshold = 2, resetTimeout = "1m")
  @Timeout("1s")
  interface Annotated extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    Flux<String> callFlux(String key, String input);

    @Override
    Flow<String> callFlow(String key, String input);
  }

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 5, resetTimeout = "1m")
  @Timeout("30s")
  interface Decoy extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    Flux<String> callFlux(String key, String input);

    @Override
    Flow<String> callFlow(String key, String input);
  }

  TimeoutInterrupts() {
    super("timeout, INTERRUPT", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(IOException.class))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 2 : 5).resetTimeout("1m"))
        .timeout(t -> t.duration(annotatedValues ? "1s" : "30s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.timeout(call, t -> t.duration("1s")).circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(2));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("TIMEOUT", call, "DURATION"), "1s", env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "2");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HANG, HANG);
    long start = cell.clock.nanoTime();

    assertThrows(TimeoutExceededException.class, () -> cell.call("v"));

    Duration took = cell.since(start);
    assertTrue(took.compareTo(Duration.ofSeconds(1)) >= 0 && took.compareTo(Duration.ofSeconds(2)) < 0, "took " + took);
    assertEquals(1, cell.script.invocations.get(), "TimeoutExceededException is not an IOException: not retried");
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));
    if (cell.async()) {
      assertTrue(cell.script.abandoned.get(0).isCancelled(), "the inner future is cancelled");
    } else {
      assertFalse(Thread.currentThread().isInterrupted(), "the interrupt Brace caused is cleared");
    }

    assertThrows(TimeoutExceededException.class, () -> cell.call("v"));
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)), "two expired attempts are two counted failures");
    if (cell.listening) {
      checkExceededEvents(cell);
    }
  }

  /** Events about a failure name it: the timeout's carry the exception's class and message. */
  static void checkExceededEvents(Cell cell) {
    List<Event> exceeded = cell.events("timeout.exceeded");
    assertEquals(2, exceeded.size());
    for (Event event : exceeded) {
      assertEquals(TimeoutExceededException.class.getName(), event.attributes().get("exception"), "attributes " + event.attributes());
      assertTrue(event.attributes().containsKey("message"), "attributes " + event.attributes());
    }
  }
}
