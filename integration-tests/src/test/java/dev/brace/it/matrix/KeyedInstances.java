package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
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

/** A key template makes one breaker and one bucket per key value, sharing the name's settings. */
final class KeyedInstances extends Scenario {
  static final String BREAKER = "keyed-breaker";
  static final String LIMITER = "keyed-limiter";

  @CircuitBreaker(name = BREAKER, failureThreshold = 1, resetTimeout = "1m", key = "{key}")
  @RateLimit(name = LIMITER, permits = 2, per = "1h", key = "{key}")
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

  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 3, resetTimeout = "1m", key = "{key}")
  @RateLimit(name = LIMITER + DECOY, permits = 5, per = "1h", key = "{key}")
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

  KeyedInstances() {
    super("keyed instances", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 1 : 3).resetTimeout("1m").key("{key}"))
        .rateLimit(named(LIMITER, annotatedValues), l -> l.permits(annotatedValues ? 2 : 5).per("1h").key("{key}"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(1)).rateLimit(decoy(LIMITER), l -> l.permits(2));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "1", env("RATELIMIT", decoy(LIMITER), "PERMITS"), "2");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO);
    assertThrows(IOException.class, () -> cell.call("a", "v"));
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER) + "[a]"));

    assertEquals("v2", cell.call("b", "v"));
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER) + "[b]"), "another key, another breaker");
    assertThrows(CircuitOpenException.class, () -> cell.call("a", "v"));

    assertEquals("v3", cell.call("b", "v"));
    assertThrows(RateLimitedException.class, () -> cell.call("b", "v"), "b's bucket is empty");
    assertEquals(1, cell.registry.rateLimiter(cell.name(LIMITER) + "[a]").availablePermits(), "a's bucket is its own");
    assertEquals("v4", cell.call("c", "v"));
    assertEquals(4, cell.script.invocations.get());
  }
}
