package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/** A shared budget caps retries: when it is empty the last failure is returned at once. */
final class RetryBudget extends Scenario {
  static final String BUDGET = "matrix-budget";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, budget = BUDGET)
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

  /** No budget: the layer must name one. */
  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
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

  RetryBudget() {
    super("retry budget", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> {
      r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE);
      if (annotatedValues) {
        r.budget(BUDGET);
      }
    });
  }

  /** One retry in the whole window: no share of calls, a reserve of 0.1 per second over 10 s. */
  @Override
  void beyondAnnotations(Registry.Builder registry) {
    registry.retryBudget(BUDGET, b -> b.percentCanRetry(0).minRetriesPerSecond(0.1).ttl("10s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.budget(BUDGET));
    beyondAnnotations(registry);
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("RETRY", call, "BUDGET"), BUDGET,
        env("RETRYBUDGET", BUDGET, "PERCENT_CAN_RETRY"), "0",
        env("RETRYBUDGET", BUDGET, "MIN_RETRIES_PER_SECOND"), "0.1",
        env("RETRYBUDGET", BUDGET, "TTL"), "10s");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO, IO, IO, IO);

    IOException first = assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals("io2", first.getMessage(), "one retry allowed, then the budget is empty");
    assertEquals(2, cell.script.invocations.get());

    assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals(3, cell.script.invocations.get(), "an empty budget allows no retry");
    if (cell.listening) {
      assertEquals(2, cell.events("retry.budget_exhausted").size());
    }
  }
}
