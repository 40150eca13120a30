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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * The wrapper's own breaker refusing a later attempt ends the call with that refusal (the earlier
 * failure suppressed), though {@code on} matches it through its superclass; later calls are
 * refused without touching the dependency.
 */
final class RefusalNotRetried extends Scenario {
  static final String BREAKER = "refusing-breaker";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @CircuitBreaker(name = BREAKER, failureThreshold = 1, resetTimeout = "1m")
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

  @Retry(maxAttempts = 5, delay = "10ms", jitter = Retry.Jitter.NONE)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 4, resetTimeout = "1m")
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

  RefusalNotRetried() {
    super("refusal not retried", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 3 : 5).delay("10ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(annotatedValues ? 1 : 4).resetTimeout("1m"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3)).circuitBreaker(decoy(BREAKER), b -> b.failureThreshold(1));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "3", env("CIRCUITBREAKER", decoy(BREAKER), "FAILURE_THRESHOLD"), "1");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO);

    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> cell.call("v"));

    assertEquals(1, cell.script.invocations.get(), "the first failure opened the breaker, which refused the retry");
    assertEquals(List.of("io1"), messages(refused.getSuppressed()));
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)));

    CircuitOpenException again = assertThrows(CircuitOpenException.class, () -> cell.call("v"));
    assertEquals(1, cell.script.invocations.get(), "refused without touching the dependency, and not retried");
    assertEquals(0, again.getSuppressed().length);
    if (cell.listening) {
      assertEquals(2, cell.events("circuit.rejected").size());
    }
  }
}
