package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * A live reconfiguration reaches the next call: the retry tries more often, and the breaker opens
 * on a new threshold counted from the failures it had already seen, the state kept across the change.
 */
final class Reconfigured extends Scenario {
  static final String BREAKER = "reconfigured-breaker";

  @CircuitBreaker(name = BREAKER, failureThreshold = 3, resetTimeout = "10s")
  @Retry(maxAttempts = 2, delay = "1ms", jitter = Retry.Jitter.NONE)
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

  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 9, resetTimeout = "10s")
  @Retry(maxAttempts = 5, delay = "1ms", jitter = Retry.Jitter.NONE)
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

  Reconfigured() {
    super("live reconfiguration keeps state", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 2 : 5).delay("1ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 3 : 9).resetTimeout("10s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(2)).circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(3));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "2", env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "3");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO);
    assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals(2, cell.script.invocations.get());
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)), "two failures, below three");

    cell.reconfigure(Map.of(
        env("RETRY", cell.callName, "MAX_ATTEMPTS"), "3",
        env("CIRCUITBREAKER", cell.name(BREAKER), "FAILURE_THRESHOLD"), "4"));

    cell.script.then(IO, IO, IO);
    assertThrows(CircuitOpenException.class, () -> cell.call("v"),
        "attempt 2 is the fourth failure in a row and opens it; the third attempt, which only the new maxAttempts allows, is refused");
    assertEquals(4, cell.script.invocations.get());
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)));
    if (cell.listening) {
      assertEquals(2, cell.events("config.changed").size(), "one per changed property");
    }
  }
}
