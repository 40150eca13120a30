package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Bulkhead;
import dev.brace.Retry;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/** Beyond maxConcurrent calls in flight the bulkhead refuses at once, the retry leaves it at that, and permits come back. */
final class BulkheadRefuses extends Scenario {
  static final String BULKHEAD = "refusing-bulkhead";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @Bulkhead(name = BULKHEAD, maxConcurrent = 2)
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

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @Bulkhead(name = BULKHEAD + DECOY, maxConcurrent = 5)
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

  BulkheadRefuses() {
    super("bulkhead refuses", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE))
        .bulkhead(named(BULKHEAD, annotatedValues), b -> b.maxConcurrent(annotatedValues ? 2 : 5));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.bulkhead(decoy(BULKHEAD), b -> b.maxConcurrent(2));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("BULKHEAD", decoy(BULKHEAD), "MAX_CONCURRENT"), "2");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HOLD, HOLD);
    CompletableFuture<String> first = cell.start("k", "a");
    CompletableFuture<String> second = cell.start("k", "b");
    cell.awaitInvocations(2);

    assertThrows(BulkheadFullException.class, () -> cell.call("c"));

    assertEquals(2, cell.script.invocations.get(), "refused, and the refusal not retried");
    assertEquals(2, cell.registry.bulkhead(cell.name(BULKHEAD)).inFlight());
    if (cell.listening) {
      assertEquals(1, cell.events("bulkhead.rejected").size());
    }
    cell.script.releaseHeld();
    cell.settle(first);
    cell.settle(second);
    assertEquals(2, cell.registry.bulkhead(cell.name(BULKHEAD)).available(), "permits come back when calls end");
    assertEquals("d3", cell.call("d"));
  }
}
