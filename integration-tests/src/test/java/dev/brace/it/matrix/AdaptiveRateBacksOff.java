package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.THROTTLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.RateLimit;
import dev.brace.runtime.Event;
import dev.brace.runtime.RateLimitedException;
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
 * An adaptive limiter hears the dependency throttle: the rate halves, nothing is admitted until
 * the hint has passed, the throttling failure still reaches the caller, and successes bring the
 * rate back up.
 */
final class AdaptiveRateBacksOff extends Scenario {
  static final String LIMITER = "backing-off-limiter";

  @RateLimit(name = LIMITER, permits = 10, per = "1s", adaptive = true)
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

  @RateLimit(name = LIMITER + DECOY, permits = 10, per = "1s")
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

  AdaptiveRateBacksOff() {
    super("adaptive rate backs off", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.rateLimit(named(LIMITER, annotatedValues), l -> l.permits(10).per("1s").adaptive(annotatedValues));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.rateLimit(decoy(LIMITER), l -> l.adaptive(true));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RATELIMIT", decoy(LIMITER), "ADAPTIVE"), "true");
  }

  @Override
  void run(Cell cell) throws Exception {
    String name = cell.name(LIMITER);
    assertEquals(10.0, cell.registry.rateLimiter(name).currentRate());
    cell.script.then(THROTTLED);
    IOException throttled = assertThrows(IOException.class, () -> cell.call("t"), "the throttling failure reaches the caller");
    assertEquals("throttled1", throttled.getMessage());
    assertEquals(5.0, cell.registry.rateLimiter(name).currentRate(), "halved");

    RateLimitedException blocked = assertThrows(RateLimitedException.class, () -> cell.call("b"));
    Duration retryAfter = blocked.retryAfter().orElseThrow();
    assertEquals(Script.Throttled.HINT.toMillis(), retryAfter.toMillis(), 5, "blocked for the hint: " + retryAfter);
    assertEquals(1, cell.script.invocations.get(), "nothing reached the dependency while blocked");

    cell.clock.advance(Script.Throttled.HINT);
    assertEquals("v2", cell.call("v"));
    assertEquals(5.1, cell.registry.rateLimiter(name).currentRate(), 1e-9, "a success adds a hundredth of permits");
    if (cell.listening) {
      Event changed = cell.events("ratelimit.rate_changed").get(0);
      assertEquals(10.0, changed.attributes().get("from"));
      assertEquals(5.0, changed.attributes().get("to"));
    }
  }
}
