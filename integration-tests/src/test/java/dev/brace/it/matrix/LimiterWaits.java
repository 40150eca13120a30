package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.RateLimit;
import dev.brace.runtime.RateLimitedException;
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

/** A caller waits up to maxWait for its token; one whose token cannot come in time is refused at once. */
final class LimiterWaits extends Scenario {
  static final String LIMITER = "waiting-limiter";

  @RateLimit(name = LIMITER, permits = 1, per = "10s", maxWait = "5s")
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

  @RateLimit(name = LIMITER + DECOY, permits = 10, per = "1s", maxWait = "0ms")
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

  LimiterWaits() {
    super("limiter waits", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.rateLimit(named(LIMITER, annotatedValues), annotatedValues
        ? l -> l.permits(1).per("10s").maxWait("5s")
        : l -> l.permits(10).per("1s").maxWait("0ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.rateLimit(decoy(LIMITER), l -> l.permits(1).per("10s").maxWait("5s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("RATELIMIT", decoy(LIMITER), "PERMITS"), "1",
        env("RATELIMIT", decoy(LIMITER), "PER"), "10s",
        env("RATELIMIT", decoy(LIMITER), "MAX_WAIT"), "5s");
  }

  @Override
  void run(Cell cell) throws Exception {
    assertEquals("v1", cell.call("v"));

    long asked = cell.clock.nanoTime();
    assertThrows(RateLimitedException.class, () -> cell.call("v"), "the next token is 10 s away, beyond maxWait");
    assertEquals(Duration.ZERO, cell.since(asked), "refused at once, not after waiting in vain");
    assertEquals(1, cell.script.invocations.get());

    cell.clock.advance(Duration.ofSeconds(6));
    asked = cell.clock.nanoTime();
    assertEquals("v2", cell.call("v"), "the token is 4 s away, within maxWait");
    Duration waited = cell.since(asked);
    assertTrue(waited.compareTo(Duration.ofMillis(3999)) >= 0 && waited.compareTo(Duration.ofMillis(4500)) < 0, "waited " + waited);
    if (cell.listening) {
      assertEquals(1, cell.events("ratelimit.waited").size());
      assertEquals(1, cell.events("ratelimit.rejected").size());
    }
  }
}
