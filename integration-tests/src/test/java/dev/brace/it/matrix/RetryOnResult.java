package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.EMPTY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import reactor.core.publisher.Mono;

/** A result {@code onResult} rejects is retried; when attempts run out, that last result is returned. */
final class RetryOnResult extends Scenario {
  @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE, onResult = Script.IsEmpty.class)
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

  /** No predicate: only the programmatic layer can give one, and a generated method must honour it. */
  @Retry(maxAttempts = 5, delay = "10ms", jitter = Retry.Jitter.NONE)
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

  RetryOnResult() {
    super("retry on result", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    if (annotatedValues) {
      stack.retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE).onResult(new Script.IsEmpty()));
    } else {
      stack.retry(r -> r.maxAttempts(5).delay("10ms").jitter(Retry.Jitter.NONE));
    }
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.retry(call, r -> r.maxAttempts(3).onResult(new Script.IsEmpty()));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of();
  }

  @Override
  String environmentCannot() {
    return "onResult is code: no environment variable can give a predicate, and the decoy has none";
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(EMPTY, EMPTY, EMPTY);
    assertEquals("", cell.call("v"), "attempts ran out: the last result is returned");
    assertEquals(3, cell.script.invocations.get());

    cell.script.then(EMPTY);
    assertEquals("v5", cell.call("v"));
    assertEquals(5, cell.script.invocations.get());
  }

  @Override
  String streamCannot(String stream) {
    return "onResult on a " + stream + " method is a compile error (" + unsupported(stream) + "): a stream has no one result to test";
  }
}
