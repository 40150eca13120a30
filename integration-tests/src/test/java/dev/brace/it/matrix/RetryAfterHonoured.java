package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static dev.brace.it.matrix.Script.Step.THROTTLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.Retry;
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

/**
 * A retry waits at least a failure's Retry-After hint, capped by maxRetryAfter: a refusal named in
 * {@code on} is ridden out until the breaker admits a probe, and a throttled dependency is given
 * the time it asked for.
 */
final class RetryAfterHonoured extends Scenario {
  static final String BREAKER = "hinting-breaker";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = {IOException.class, CircuitOpenException.class},
      maxRetryAfter = "1m")
  @CircuitBreaker(name = BREAKER, failureThreshold = 1, resetTimeout = "5s", ignore = Script.Throttled.class)
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

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = {IOException.class, CircuitOpenException.class},
      maxRetryAfter = "1s")
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 1, resetTimeout = "30s", ignore = Script.Throttled.class)
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

  RetryAfterHonoured() {
    super("Retry-After honoured", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).on(IOException.class, CircuitOpenException.class)
            .maxRetryAfter(annotatedValues ? "1m" : "1s"))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(1).resetTimeout(annotatedValues ? "5s" : "30s").ignore(Script.Throttled.class));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxRetryAfter("1m")).circuitBreaker(decoy(BREAKER), b -> b.resetTimeout("5s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_RETRY_AFTER"), "1m", env("CIRCUITBREAKER", decoy(BREAKER), "RESET_TIMEOUT"), "5s");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO);
    long start = cell.clock.nanoTime();
    assertEquals("v2", cell.call("v"), "the retry rode out the open window and the probe succeeded");
    Duration waited = cell.since(start);
    assertTrue(waited.compareTo(Duration.ofSeconds(5)) >= 0 && waited.compareTo(Duration.ofSeconds(6)) < 0, "waited " + waited);
    assertEquals(CircuitState.CLOSED, cell.state(cell.name(BREAKER)));

    cell.script.then(THROTTLED);
    start = cell.clock.nanoTime();
    assertEquals("v4", cell.call("v"));
    waited = cell.since(start);
    assertTrue(waited.compareTo(Script.Throttled.HINT) >= 0 && waited.compareTo(Script.Throttled.HINT.plusSeconds(1)) < 0,
        "a hint of " + Script.Throttled.HINT + ", waited " + waited);
  }
}
