package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * A caller waits for a permit up to maxWait: admitted when one comes free in time, refused once
 * maxWait has passed on the registry's clock (manual time here, so no test waits a minute).
 */
final class BulkheadWaits extends Scenario {
  static final String BULKHEAD = "waiting-bulkhead";

  @Bulkhead(name = BULKHEAD, maxConcurrent = 1, maxWait = "1m")
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

  @Bulkhead(name = BULKHEAD + DECOY, maxConcurrent = 3, maxWait = "0ms")
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

  BulkheadWaits() {
    super("bulkhead waits", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.bulkhead(named(BULKHEAD, annotatedValues), annotatedValues ? b -> b.maxConcurrent(1).maxWait("1m") : b -> b.maxConcurrent(3).maxWait("0ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.bulkhead(decoy(BULKHEAD), b -> b.maxConcurrent(1).maxWait("1m"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("BULKHEAD", decoy(BULKHEAD), "MAX_CONCURRENT"), "1", env("BULKHEAD", decoy(BULKHEAD), "MAX_WAIT"), "1m");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HOLD);
    CompletableFuture<String> holder = cell.start("k", "a");
    cell.awaitInvocations(1);
    CompletableFuture<String> waiter = cell.start("k", "b");
    cell.awaitParkedIn(waiter, "SemaphoreBulkhead");
    assertFalse(waiter.isDone(), "the second caller waits for the permit");
    assertEquals(1, cell.script.invocations.get());

    cell.script.releaseHeld();
    assertEquals("a1", cell.settle(holder));
    // Manual time stands still for a sync waiter: the freed permit alone must let it in.
    assertEquals("b2", cell.async() ? cell.drive(waiter) : cell.settle(waiter));

    cell.script.then(HOLD);
    holder = cell.start("k", "c");
    cell.awaitInvocations(3);
    long asked = cell.clock.nanoTime();
    CompletableFuture<String> late = cell.start("k", "d");

    assertThrows(BulkheadFullException.class, () -> cell.drive(late), "refused once a minute passed on the registry's clock");

    assertTrue(cell.since(asked).compareTo(Duration.ofMinutes(1)) >= 0, "refused after " + cell.since(asked));
    assertEquals(3, cell.script.invocations.get());
    cell.script.releaseHeld();
    cell.settle(holder);
    assertEquals(1, cell.registry.bulkhead(cell.name(BULKHEAD)).available());
  }
}
