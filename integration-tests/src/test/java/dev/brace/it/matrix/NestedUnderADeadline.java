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
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A call nested under a 300 ms deadline, with a 2 s timeout, a retry and a breaker of its own,
 * against a dependency that hangs: the attempt is cut at the deadline, not at 2 s; the call fails
 * with DeadlineExceededException, not retried, not counted by the breaker; a further call once the
 * deadline has passed fails at once without reaching the dependency. The decoy's 100 ms timeout
 * would beat the deadline and be counted: only the layer's 2 s lets the deadline decide. A {@code
 * Mono} or {@code Flux} subscribed under the deadline is bound by it in the same way (a stream to
 * its first element, as by its timeout), and cancels the subscription it cut.
 */
final class NestedUnderADeadline extends Scenario {
  static final String BREAKER = "deadline-breaker";
  static final Duration DEADLINE = Duration.ofMillis(300);

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = Exception.class)
  @CircuitBreaker(name = BREAKER, failureThreshold = 1, resetTimeout = "1m")
  @Timeout("2s")
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

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = Exception.class)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 5, resetTimeout = "1m")
  @Timeout("100ms")
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

  NestedUnderADeadline() {
    super("nested call under a deadline", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(Exception.class))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 1 : 5).resetTimeout("1m"))
        .timeout(t -> t.duration(annotatedValues ? "2s" : "100ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.timeout(call, t -> t.duration("2s")).circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(1));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("TIMEOUT", call, "DURATION"), "2s", env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "1");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HANG, HANG, HANG);
    long start = cell.clock.nanoTime();
    try (Deadline.Scope request = Deadline.open(DEADLINE, cell.clock)) {
      DeadlineExceededException cut = assertThrows(DeadlineExceededException.class, () -> cell.call("v"));

      assertEquals(DEADLINE, cell.since(start), "cut at the deadline, not at the call's 2 s timeout");
      assertEquals(DEADLINE, cut.timeout(), "it names the deadline's budget");
      assertEquals(1, cell.script.invocations.get(), "no retry starts past the deadline");
      assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)), "the caller ran out of time; the dependency did not fail");
      if (cell.async()) {
        assertTrue(cell.script.abandoned.get(0).isCancelled(), "the inner future is cancelled");
      } else {
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt Brace caused is cleared");
      }

      assertThrows(DeadlineExceededException.class, () -> cell.call("v"));
      assertEquals(1, cell.script.invocations.get(), "a call past its deadline does not reach the dependency");
      assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));
    }
    if (cell.listening) {
      assertEquals(2, cell.events("deadline.exceeded").size(), "events " + cell.events);
    }
  }
}
