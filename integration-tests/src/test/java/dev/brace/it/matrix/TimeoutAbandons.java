package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.BLOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * An ABANDON timeout releases the caller at the deadline even from a call that ignores
 * interrupts; the worker is interrupted and left, and the breaker counts the expiry.
 */
final class TimeoutAbandons extends Scenario {
  static final String BREAKER = "abandoning-breaker";

  @CircuitBreaker(name = BREAKER, failureThreshold = 2, resetTimeout = "1m")
  @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
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

  /** INTERRUPT cannot free a caller from a call that ignores interrupts: only the layer's ABANDON can. */
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

  TimeoutAbandons() {
    super("timeout, ABANDON", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 2 : 5).resetTimeout("1m"))
        .timeout(annotatedValues ? t -> t.duration("1s").mode(Timeout.Mode.ABANDON) : t -> t.duration("30s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.timeout(call, t -> t.duration("1s").mode(Timeout.Mode.ABANDON)).circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(2));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("TIMEOUT", call, "DURATION"), "1s",
        env("TIMEOUT", call, "MODE"), "ABANDON",
        env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "2");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(BLOCK, BLOCK);
    long start = cell.clock.nanoTime();

    CompletableFuture<String> first = cell.start("k", "v");
    assertThrows(TimeoutExceededException.class, () -> cell.drive(first));

    Duration took = cell.since(start);
    assertTrue(took.compareTo(Duration.ofSeconds(1)) >= 0 && took.compareTo(Duration.ofSeconds(10)) < 0, "took " + took);
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));
    if (cell.async()) {
      assertTrue(cell.script.abandoned.get(0).isCancelled(), "the inner future is cancelled");
    } else {
      awaitWorkerInterrupted(cell);
    }

    CompletableFuture<String> second = cell.start("k", "v");
    assertThrows(TimeoutExceededException.class, () -> cell.drive(second));
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)), "two expired attempts are two counted failures");
    cell.awaitInvocations(2);
    if (cell.listening) {
      TimeoutInterrupts.checkExceededEvents(cell);
    }
  }

  /** The abandoned worker is interrupted (it ignores that, as a blocking socket read would). */
  private static void awaitWorkerInterrupted(Cell cell) {
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (cell.script.interruptsIgnored.get() == 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(1_000_000);
    }
    assertTrue(cell.script.interruptsIgnored.get() > 0, "the abandoned worker was never interrupted");
  }
}
