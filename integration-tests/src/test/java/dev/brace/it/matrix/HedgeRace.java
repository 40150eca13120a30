package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.CircuitBreaker;
import dev.brace.Hedge;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import kotlin.coroutines.Continuation;
import reactor.core.publisher.Mono;

/**
 * A hedge starts once its delay has passed without an answer and the first answer wins, the slow
 * attempt stopped without counting as a failure; a failed attempt starts the next at once, and each
 * attempt passes the breaker on its own, so two failures in one call open a breaker of threshold 2.
 */
final class HedgeRace extends Scenario {
  static final String BREAKER = "hedged-breaker";

  @Hedge(delay = "100ms", maxHedges = 1)
  @CircuitBreaker(name = BREAKER, failureThreshold = 2, resetTimeout = "1m")
  interface Annotated extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;
  }

  /** A hedge that would start only after ten seconds: the layer's delay must replace it. */
  @Hedge(delay = "10s", maxHedges = 1)
  @CircuitBreaker(name = BREAKER + DECOY, failureThreshold = 2, resetTimeout = "1m")
  interface Decoy extends Shape {
    @Override
    String call(String key, String input) throws Exception;

    @Override
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    Mono<String> callMono(String key, String input);

    @Override
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;
  }

  HedgeRace() {
    super("hedge: the first answer wins", Annotated.class, Decoy.class);
  }

  @Override
  List<String> breakers() {
    return List.of(BREAKER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.hedge(h -> h.delay(annotatedValues ? "100ms" : "10s").maxHedges(1))
        .circuitBreaker(named(BREAKER, annotatedValues), b -> b.failureThreshold(2).resetTimeout("1m"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.hedge(call, h -> h.delay("100ms"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("HEDGE", call, "DELAY"), "100ms");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HOLD);
    CompletableFuture<String> raced = cell.start("k", "v");
    cell.awaitInvocations(1);
    // Manual time stands still for the held attempt: only the hedge's delay passing lets the call end.
    cell.clock.advance(Duration.ofMillis(100));

    assertEquals("v2", cell.settle(raced), "the hedge answered first");
    assertEquals(2, cell.script.invocations.get());
    if (cell.async()) {
      assertTrue(raced.isDone());
    }

    // Had the stopped attempt counted as a failure, this call's first failure would open the
    // breaker, which would refuse the hedge: the call would end with io3, not io4.
    cell.script.then(IO, IO);
    IOException failed = assertThrows(IOException.class, () -> cell.call("v"));

    assertEquals("io4", failed.getMessage(), "the failure started the hedge at once, and the last failure propagates");
    assertEquals(List.of("io3"), messages(failed.getSuppressed()), "with the earlier one attached");
    assertEquals(CircuitState.OPEN, cell.state(cell.name(BREAKER)), "each attempt went through the breaker");
    if (cell.listening) {
      assertEquals(List.of(2, 2), attempts(cell, "hedge.started"));
      assertEquals(List.of(2), attempts(cell, "hedge.won"));
    }
  }

  private static List<Object> attempts(Cell cell, String kind) {
    return cell.events(kind).stream().map(Event::attributes).map(attributes -> attributes.get("attempt"))
        .collect(Collectors.toList());
  }

  @Override
  String streamCannot(String stream) {
    return "a hedge on a " + stream + " method is a compile error (" + unsupported(stream) + "): a stream has no one answer to race";
  }
}
