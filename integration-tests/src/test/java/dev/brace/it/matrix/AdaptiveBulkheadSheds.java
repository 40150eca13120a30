package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.Event;
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
 * An adaptive bulkhead admits SHEDDABLE calls up to half its limit and refuses the rest, and its
 * limit grows as calls that used it complete, so more are admitted afterwards.
 */
final class AdaptiveBulkheadSheds extends Scenario {
  static final String BULKHEAD = "shedding-bulkhead";

  @Criticality(Criticality.Level.SHEDDABLE)
  @Bulkhead(name = BULKHEAD, maxConcurrent = 10, adaptive = Bulkhead.Adaptive.AIMD, initialConcurrent = 4)
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

  @Criticality(Criticality.Level.SHEDDABLE)
  @Bulkhead(name = BULKHEAD + DECOY, maxConcurrent = 10)
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

  AdaptiveBulkheadSheds() {
    super("adaptive bulkhead sheds by criticality", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.criticality(Criticality.Level.SHEDDABLE);
    if (annotatedValues) {
      stack.bulkhead(BULKHEAD, b -> b.maxConcurrent(10).adaptive(Bulkhead.Adaptive.AIMD).initialConcurrent(4));
    } else {
      stack.bulkhead(decoy(BULKHEAD), b -> b.maxConcurrent(10));
    }
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.bulkhead(decoy(BULKHEAD), b -> b.adaptive(Bulkhead.Adaptive.AIMD).initialConcurrent(4));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("BULKHEAD", decoy(BULKHEAD), "ADAPTIVE"), "aimd",
        env("BULKHEAD", decoy(BULKHEAD), "INITIAL_CONCURRENT"), "4");
  }

  @Override
  void run(Cell cell) throws Exception {
    String name = cell.name(BULKHEAD);
    assertEquals(4, cell.registry.bulkhead(name).limit());
    holdAndShed(cell, 2, "a");
    assertEquals(5, cell.registry.bulkhead(name).limit(), "the call that saw half the limit in flight grew it by one");
    holdAndShed(cell, 3, "b");
    assertEquals(0, cell.registry.bulkhead(name).inFlight());
    if (cell.listening) {
      List<Event> rejected = cell.events("bulkhead.rejected");
      assertEquals(2, rejected.size());
      assertEquals("SHEDDABLE", rejected.get(0).attributes().get("criticality"));
      Event changed = cell.events("bulkhead.limit_changed").get(0);
      assertEquals(4, changed.attributes().get("from"));
      assertEquals(5, changed.attributes().get("to"));
    }
  }

  /** Holds {@code admitted} calls in flight (half the limit, rounded up), sees the next one shed, then lets them end. */
  private static void holdAndShed(Cell cell, int admitted, String input) throws Exception {
    int before = cell.script.invocations.get();
    CompletableFuture<?>[] held = new CompletableFuture<?>[admitted];
    for (int i = 0; i < admitted; i++) {
      cell.script.then(HOLD);
      held[i] = cell.start("k", input);
      cell.awaitInvocations(before + i + 1);
    }
    BulkheadFullException shed = assertThrows(BulkheadFullException.class, () -> cell.call("shed"));
    assertEquals(before + admitted, cell.script.invocations.get(), "the shed call never reached the dependency");
    assertEquals(admitted, cell.registry.bulkhead(cell.name(BULKHEAD)).inFlight(), shed.getMessage());
    cell.script.releaseHeld();
    for (CompletableFuture<?> call : held) {
      cell.settle((CompletableFuture<String>) call);
    }
  }
}
