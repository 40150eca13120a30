package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.IO;
import static dev.brace.it.matrix.Script.Step.OK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
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

/** The last failure is rethrown as itself, the earlier ones suppressed in order; a transient one is ridden out. */
final class RetryExhaustion extends Scenario {
  @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE)
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

  @Retry(maxAttempts = 6, delay = "1ms", jitter = Retry.Jitter.NONE)
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

  RetryExhaustion() {
    super("retry exhaustion, suppressed in order", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.retry(r -> r.maxAttempts(annotatedValues ? 3 : 6).delay(annotatedValues ? "100ms" : "1ms").jitter(Retry.Jitter.NONE));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3).delay("100ms"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "3", env("RETRY", call, "DELAY"), "100ms");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(IO, IO, IO);
    long start = cell.clock.nanoTime();

    IOException thrown = assertThrows(IOException.class, () -> cell.call("v"));

    assertEquals("io3", thrown.getMessage());
    assertEquals(List.of("io1", "io2"), messages(thrown.getSuppressed()));
    assertEquals(3, cell.script.invocations.get());
    assertTrue(cell.since(start).compareTo(Duration.ofMillis(300)) >= 0, "backoffs of 100 ms and 200 ms, waited " + cell.since(start));
    if (cell.listening) {
      assertEquals(3, cell.events("retry.attempt_failed").size(), "every failed attempt, the last included");
      assertEquals(1, cell.events("retry.exhausted").size());
    }

    cell.script.then(IO, OK);
    assertEquals("v5", cell.call("v"), "a transient failure is retried until it succeeds");
  }
}
