package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;
import dev.brace.Timeout;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * A call behind a timeout and a limiter that waits for its bulkhead's permit is admitted when one
 * comes free and reports the wait as {@code bulkhead.waited}, measured on the registry's clock,
 * exactly as a call with the bulkhead alone does: the other patterns change which path a call
 * takes, never what it reports.
 */
final class BulkheadWaitReported extends Scenario {
  static final String LIMITER = "reported-limiter";
  static final String BULKHEAD = "reported-bulkhead";
  /** How long the waiter waits on the registry's clock before the holder lets go. */
  static final Duration WAIT = Duration.ofMillis(200);

  @Timeout("10m")
  @RateLimit(name = LIMITER, permits = 1000, per = "1s", maxWait = "1s")
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

  @Timeout("10m")
  @RateLimit(name = LIMITER + DECOY, permits = 1000, per = "1s", maxWait = "1s")
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

  BulkheadWaitReported() {
    super("bulkhead wait reported under a timeout and a limiter", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.timeout(t -> t.duration("10m"))
        .rateLimit(named(LIMITER, annotatedValues), l -> l.permits(1000).per("1s").maxWait("1s"))
        .bulkhead(named(BULKHEAD, annotatedValues), annotatedValues
            ? b -> b.maxConcurrent(1).maxWait("1m")
            : b -> b.maxConcurrent(3).maxWait("0ms"));
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
    cell.clock.advance(WAIT);
    assertFalse(waiter.isDone(), "the second caller waits for the permit");
    assertEquals(1, cell.script.invocations.get());

    cell.script.releaseHeld();
    assertEquals("a1", cell.settle(holder));
    assertEquals("b2", cell.async() ? cell.drive(waiter) : cell.settle(waiter));
    assertEquals(1, cell.registry.bulkhead(cell.name(BULKHEAD)).available());

    if (cell.listening) {
      List<Event> waited = cell.events("bulkhead.waited");
      assertEquals(1, waited.size(), "one wait, reported once: " + waited);
      assertEquals(cell.name(BULKHEAD), waited.get(0).instance());
      long waitedMs = (Long) waited.get(0).attributes().get("waited_ms");
      // A sync waiter is woken by the release itself; an async one at its next poll, a step later.
      assertTrue(cell.async() ? waitedMs >= WAIT.toMillis() : waitedMs == WAIT.toMillis(), "waited " + waitedMs + " ms");
      assertEquals(List.of(), cell.events("ratelimit.waited"), "the limiter had tokens to spare");
      assertEquals(List.of(), cell.events("timeout.exceeded"));
    }
  }
}
