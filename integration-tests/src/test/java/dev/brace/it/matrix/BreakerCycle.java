package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/** The breaker opens on consecutive failures, refuses, re-opens on a failed probe and closes after enough good ones. */
final class BreakerCycle extends Scenario {
  static final String BREAKER = "cycling-breaker";

  @CircuitBreaker(name = BREAKER, failureThreshold = 2, successThreshold = 2, resetTimeout = "10s")
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

  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 5, successThreshold = 1, resetTimeout = "1m")
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

  BreakerCycle() {
    super("breaker opens, probes, closes", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.circuitBreaker(named(BREAKER, annotatedValues), annotatedValues
        ? b -> b.failureThreshold(2).successThreshold(2).resetTimeout("10s")
        : b -> b.failureThreshold(5).successThreshold(1).resetTimeout("1m"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(2).successThreshold(2).resetTimeout("10s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "2",
        env("CIRCUITBREAKER", decoy(BREAKER), "SUCCESS_THRESHOLD"), "2",
        env("CIRCUITBREAKER", decoy(BREAKER), "RESET_TIMEOUT"), "10s");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO);
    assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));
    assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)));

    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> cell.call("v"));
    assertEquals(2, cell.script.invocations.get(), "a refused call never reaches the dependency");
    Duration retryAfter = refused.retryAfter().orElseThrow();
    assertTrue(retryAfter.compareTo(Duration.ZERO) > 0 && retryAfter.compareTo(Duration.ofSeconds(10)) <= 0, "retryAfter " + retryAfter);

    cell.clock.advance(Duration.ofSeconds(10));
    cell.script.then(IO);
    assertThrows(IOException.class, () -> cell.call("v"), "the probe fails");
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)), "a failed probe re-opens it");
    assertThrows(CircuitOpenException.class, () -> cell.call("v"));

    cell.clock.advance(Duration.ofSeconds(10));
    assertEquals("v4", cell.call("v"));
    assertEquals(CircuitState.HALF_OPEN, cell.state(cell.name(BREAKER)), "one good probe of the two it needs");
    assertEquals("v5", cell.call("v"));
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));
    if (cell.listening) {
      assertEquals(2, cell.events("circuit.opened").size());
      assertEquals(2, cell.events("circuit.half_open").size());
      assertEquals(1, cell.events("circuit.closed").size());
    }
  }
}
