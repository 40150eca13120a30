package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.RateLimit;
import dev.brace.Retry;
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

/** Without a token and without maxWait the limiter refuses with a retry-after, and the retry leaves it at that. */
final class LimiterRefuses extends Scenario {
  static final String LIMITER = "refusing-limiter";

  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
  @RateLimit(name = LIMITER, permits = 2, per = "1m")
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
  @RateLimit(name = LIMITER + DECOY, permits = 5, per = "1s")
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

  LimiterRefuses() {
    super("limiter refuses", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE))
        .rateLimit(named(LIMITER, annotatedValues), annotatedValues ? l -> l.permits(2).per("1m") : l -> l.permits(5).per("1s"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.rateLimit(decoy(LIMITER), l -> l.permits(2).per("1m"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RATELIMIT", decoy(LIMITER), "PERMITS"), "2", env("RATELIMIT", decoy(LIMITER), "PER"), "1m");
  }

  @Override
  void run(Cell cell) throws Exception {
    assertEquals("v1", cell.call("v"));
    assertEquals("v2", cell.call("v"));

    RateLimitedException refused = assertThrows(RateLimitedException.class, () -> cell.call("v"));

    assertEquals(2, cell.script.invocations.get(), "refused, and the refusal not retried");
    Duration retryAfter = refused.retryAfter().orElseThrow();
    assertTrue(retryAfter.compareTo(Duration.ZERO) > 0 && retryAfter.compareTo(Duration.ofSeconds(30)) <= 0, "retryAfter " + retryAfter);
    assertEquals(0, cell.registry.rateLimiter(cell.name(LIMITER)).availablePermits());
    if (cell.listening) {
      assertEquals(1, cell.events("ratelimit.rejected").size());
    }

    cell.clock.advance(Duration.ofSeconds(30));
    assertEquals("v3", cell.call("v"), "a token every 30 s");
  }
}
