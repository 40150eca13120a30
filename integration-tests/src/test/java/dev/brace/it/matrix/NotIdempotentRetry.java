package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.CONNECT;
import static dev.brace.it.matrix.Script.Step.IO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.NotIdempotent;
import dev.brace.Retry;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Flux;

/**
 * A call marked not idempotent is retried on a connection that was never made and on nothing
 * else, and no layer of configuration can widen its retry: a form created with a wider {@code on}
 * is refused.
 */
final class NotIdempotentRetry extends Scenario {
  @NotIdempotent
  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, on = ConnectException.class)
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

  @NotIdempotent
  @Retry(maxAttempts = 1, delay = "10ms", jitter = Retry.Jitter.NONE, on = ConnectException.class)
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

  NotIdempotentRetry() {
    super("not idempotent: retried only when never sent", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.notIdempotent()
        .retry(r -> r.maxAttempts(annotatedValues ? 3 : 1).delay("10ms").jitter(Retry.Jitter.NONE).on(ConnectException.class));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("RETRY", call, "MAX_ATTEMPTS"), "3");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(CONNECT, CONNECT);
    assertEquals("v3", cell.call("v"), "two connections refused, then sent once");

    cell.script.then(IO);
    IOException sent = assertThrows(IOException.class, () -> cell.call("v"));
    assertEquals("io4", sent.getMessage());
    assertEquals(4, cell.script.invocations.get(), "a request that may have been acted on is never sent again");

    Registry widened = Registry.builder().timeSource(cell.clock).environment(Map.of()).systemProperties(Map.of())
        .retry(cell.callName, r -> r.on(ConnectException.class, IOException.class))
        .build();
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> cell.form.caller(
        this, cell.layer.type(this), cell.callName, cell.layer == Layer.ANNOTATION, widened, cell.script));
    assertEquals("[brace:not-idempotent-retry]", refused.tag());
    assertTrue(refused.getMessage().contains("(programmatic) includes java.io.IOException"), refused.getMessage());
  }
}
