package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import reactor.core.publisher.Mono;

/**
 * {@code @StaleIfError}: a fresh result answers without a call; once retries are spent, a failure
 * is answered with the key's latest result while it is no older than {@code maxAge}; a key with
 * nothing young enough goes on to the fallback.
 */
final class StaleAnswers extends Scenario {
  interface Annotated extends Shape {
    @Override
    @StaleIfError(maxAge = "1m", fresh = "10s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @StaleIfError(maxAge = "1m", fresh = "10s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @StaleIfError(maxAge = "1m", fresh = "10s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @StaleIfError(maxAge = "1m", fresh = "10s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    default String fallback(String key, String input) {
      return "fallback";
    }

    default CompletableFuture<String> fallbackAsync(String key, String input) {
      return CompletableFuture.completedFuture("fallback");
    }
  }

  /** Remembers for a second and never answers without calling. */
  interface Decoy extends Shape {
    @Override
    @StaleIfError(maxAge = "1s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    String call(String key, String input) throws Exception;

    @Override
    @StaleIfError(maxAge = "1s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallbackAsync")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @StaleIfError(maxAge = "1s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    Mono<String> callMono(String key, String input);

    @Override
    @StaleIfError(maxAge = "1s", key = "{key}")
    @Retry(maxAttempts = 2, delay = "0ms")
    @Fallback(method = "fallback")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;

    default String fallback(String key, String input) {
      return "fallback";
    }

    default CompletableFuture<String> fallbackAsync(String key, String input) {
      return CompletableFuture.completedFuture("fallback");
    }
  }

  StaleAnswers() {
    super("stale answers: fresh, served, missing", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.staleIfError(s -> {
      if (annotatedValues) {
        s.maxAge("1m").fresh("10s");
      } else {
        s.maxAge("1s");
      }
    }).retry(r -> r.maxAttempts(2).delay("0ms")).fallback(cause -> "fallback");
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.staleIfError(call, s -> s.maxAge("1m").fresh("10s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("STALEIFERROR", call, "MAX_AGE"), "1m", env("STALEIFERROR", call, "FRESH"), "10s");
  }

  @Override
  void run(Cell cell) throws Exception {
    assertEquals("v1", cell.call("a", "v"));
    assertEquals("v1", cell.call("a", "v"), "fresh: answered without a call");
    assertEquals(1, cell.script.invocations.get());

    cell.clock.advance(Duration.ofSeconds(20));
    cell.script.then(IO, IO);
    assertEquals("v1", cell.call("a", "v"), "both attempts failed; the 20 s old result answers");
    assertEquals(3, cell.script.invocations.get(), "stale answers only once the retries are spent");

    cell.script.then(IO, IO);
    assertEquals("fallback", cell.call("b", "v"), "nothing remembered for b: the fallback answers");

    cell.clock.advance(Duration.ofSeconds(41));
    cell.script.then(IO, IO);
    assertEquals("fallback", cell.call("a", "v"), "a's result is 61 s old, past maxAge");
    assertEquals(7, cell.script.invocations.get());

    if (cell.listening) {
      List<Event> served = cell.events("stale.served");
      assertEquals(1, served.size());
      long age = ((Number) served.get(0).attributes().get("age_ms")).longValue();
      assertTrue(age >= 20_000 && age < 21_000, "age_ms " + age);
      assertEquals("java.io.IOException", served.get(0).attributes().get("exception"));
      assertEquals(2, cell.events("stale.missing").size());
      assertEquals(2, cell.events("fallback.used").size());
    }
  }

  @Override
  String streamCannot(String stream) {
    return "stale answers on a " + stream + " method are a compile error (" + unsupported(stream) + "): a stream has no one result to remember";
  }
}
