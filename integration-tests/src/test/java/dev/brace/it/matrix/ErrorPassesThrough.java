package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.ERROR;
import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * An Error passes through untouched though every filter names Throwable: not retried, no fallback,
 * not recorded by the breaker, its permit released. The same call's ordinary failure then shows
 * the layer's values in force.
 */
final class ErrorPassesThrough extends Scenario {
  static final String BREAKER = "fatal-breaker";
  static final String BULKHEAD = "fatal-bulkhead";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = Throwable.class)
  @CircuitBreaker(name = BREAKER, failureThreshold = 1, resetTimeout = "1m", on = Throwable.class)
  @Bulkhead(name = BULKHEAD, maxConcurrent = 1)
  interface Annotated extends Shape {
    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync", on = Throwable.class)
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux", on = Throwable.class)
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow", on = Throwable.class)
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Throwable cause) {
      return "fallback:" + cause.getClass().getSimpleName();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Throwable cause) {
      return CompletableFuture.completedFuture("fallback:" + cause.getClass().getSimpleName());
    }

    default Flux<String> fallbackFlux(String key, String input, Throwable cause) {
      return Flux.just("fallback:" + cause.getClass().getSimpleName());
    }

    default Flow<String> fallbackFlow(String key, String input, Throwable cause) {
      return FlowKt.flowOf("fallback:" + cause.getClass().getSimpleName());
    }
  }

  @Retry(maxAttempts = 4, delay = "10ms", jitter = Retry.Jitter.NONE, on = Throwable.class)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 5, resetTimeout = "1m", on = Throwable.class)
  @Bulkhead(name = BULKHEAD + DECOY, maxConcurrent = 3)
  interface Decoy extends Shape {
    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    String call(String key, String input) throws Exception;

    @Override
    @Fallback(method = "fallbackAsync", on = Throwable.class)
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    Mono<String> callMono(String key, String input);

    @Override
    @Fallback(method = "fallback", on = Throwable.class)
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    @Override
    @Fallback(method = "fallbackFlux", on = Throwable.class)
    Flux<String> callFlux(String key, String input);

    @Override
    @Fallback(method = "fallbackFlow", on = Throwable.class)
    Flow<String> callFlow(String key, String input);

    default String fallback(String key, String input, Throwable cause) {
      return "fallback:" + cause.getClass().getSimpleName();
    }

    default CompletableFuture<String> fallbackAsync(String key, String input, Throwable cause) {
      return CompletableFuture.completedFuture("fallback:" + cause.getClass().getSimpleName());
    }

    default Flux<String> fallbackFlux(String key, String input, Throwable cause) {
      return Flux.just("fallback:" + cause.getClass().getSimpleName());
    }

    default Flow<String> fallbackFlow(String key, String input, Throwable cause) {
      return FlowKt.flowOf("fallback:" + cause.getClass().getSimpleName());
    }
  }

  ErrorPassesThrough() {
    super("Error passes through", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 3 : 4).delay("10ms").jitter(Retry.Jitter.NONE).on(Throwable.class))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 1 : 5).resetTimeout("1m").on(Throwable.class))
        .bulkhead(named(BULKHEAD, annotatedValues), b -> b.maxConcurrent(annotatedValues ? 1 : 3))
        .fallback(f -> f.on(Throwable.class), cause -> {
          script.fallbackCauses.add(cause);
          return "fallback:" + cause.getClass().getSimpleName();
        });
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3))
        .circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(1))
        .bulkhead(decoy(BULKHEAD), b -> b.maxConcurrent(1));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("RETRY", call, "MAX_ATTEMPTS"), "3",
        env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "1",
        env("BULKHEAD", decoy(BULKHEAD), "MAX_CONCURRENT"), "1");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(ERROR);

    Script.DependencyError thrown = assertThrows(Script.DependencyError.class, () -> cell.call("v"));

    assertSame(cell.script.errors.get(0), thrown, "the very Error, unwrapped");
    assertEquals(0, thrown.getSuppressed().length);
    assertEquals(1, cell.script.invocations.get(), "not retried");
    assertTrue(cell.script.fallbackCauses.isEmpty(), "no fallback");
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)), "not recorded, though one failure would open it");
    assertEquals(1, cell.registry.bulkhead(cell.name(BULKHEAD)).available(), "its permit released");
    if (cell.listening) {
      assertTrue(cell.events("retry.attempt_failed").isEmpty());
      assertTrue(cell.events("fallback.used").isEmpty());
    }

    cell.script.then(IO);
    assertEquals("fallback:CircuitOpenException", cell.call("v"), "one failure opened the breaker, whose refusal the fallback answered");
    assertEquals(2, cell.script.invocations.get());
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)));
  }
}
