package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A caller that took its token and then finds the bulkhead full waits for the permit with that
 * token and is admitted without a second one: two calls, two tokens, however the attempt was
 * begun (at once, in the caller's own steps, or the staged way) and wherever the limiter's state
 * lives.
 */
final class TokenHeldAcrossAWait extends Scenario {
  static final String LIMITER = "held-token-limiter";
  static final String BULKHEAD = "held-token-bulkhead";

  @RateLimit(name = LIMITER, permits = 2, per = "1m")
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

  @RateLimit(name = LIMITER + DECOY, permits = 100, per = "1s")
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

  TokenHeldAcrossAWait() {
    super("token held across a bulkhead wait", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.rateLimit(named(LIMITER, annotatedValues), annotatedValues ? l -> l.permits(2).per("1m") : l -> l.permits(100).per("1s"))
        .bulkhead(named(BULKHEAD, annotatedValues), annotatedValues ? b -> b.maxConcurrent(1).maxWait("1m") : b -> b.maxConcurrent(3).maxWait("0ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.rateLimit(decoy(LIMITER), l -> l.permits(2).per("1m"))
        .bulkhead(decoy(BULKHEAD), b -> b.maxConcurrent(1).maxWait("1m"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("RATELIMIT", decoy(LIMITER), "PERMITS"), "2",
        env("RATELIMIT", decoy(LIMITER), "PER"), "1m",
        env("BULKHEAD", decoy(BULKHEAD), "MAX_CONCURRENT"), "1",
        env("BULKHEAD", decoy(BULKHEAD), "MAX_WAIT"), "1m");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HOLD);
    CompletableFuture<String> holder = cell.start("k", "a");
    cell.awaitInvocations(1);
    CompletableFuture<String> waiter = cell.start("k", "b");
    cell.awaitParkedIn(waiter, "SemaphoreBulkhead");
    assertFalse(waiter.isDone(), "the second caller waits for the permit");

    cell.script.releaseHeld();
    assertEquals("a1", cell.settle(holder));
    assertEquals("b2", cell.async() ? cell.drive(waiter) : cell.settle(waiter),
        "admitted with the token it took before it waited; a second token would have been refused");
    assertEquals(0, cell.registry.rateLimiter(cell.name(LIMITER)).availablePermits(), "two calls, two tokens");

    assertThrows(RateLimitedException.class, () -> cell.call("c"), "the third call finds no token");
    assertEquals(2, cell.script.invocations.get());
    assertEquals(1, cell.registry.bulkhead(cell.name(BULKHEAD)).available(), "the permit is back");
    if (cell.listening) {
      assertEquals(1, cell.events("ratelimit.rejected").size(), "only the third call was refused");
    }
  }
}
