package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HOLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.StaleIfError;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import kotlin.coroutines.Continuation;
import reactor.core.publisher.Mono;

/**
 * {@code @StaleIfError} with {@code fresh}: while one call of a key is in flight, a second call of
 * the same key waits for its outcome instead of calling, and gets the same answer; another key
 * calls at once.
 */
final class StaleSingleFlight extends Scenario {
  interface Annotated extends Shape {
    @Override
    @StaleIfError(fresh = "10s", key = "{key}")
    String call(String key, String input) throws Exception;

    @Override
    @StaleIfError(fresh = "10s", key = "{key}")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @StaleIfError(fresh = "10s", key = "{key}")
    Mono<String> callMono(String key, String input);

    @Override
    @StaleIfError(fresh = "10s", key = "{key}")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;
  }

  /** Never answers without calling, so every call calls. */
  interface Decoy extends Shape {
    @Override
    @StaleIfError(key = "{key}")
    String call(String key, String input) throws Exception;

    @Override
    @StaleIfError(key = "{key}")
    CompletableFuture<String> callAsync(String key, String input);

    @Override
    @StaleIfError(key = "{key}")
    Mono<String> callMono(String key, String input);

    @Override
    @StaleIfError(key = "{key}")
    Object callSuspend(String key, String input, Continuation<? super String> completion) throws Exception;
  }

  StaleSingleFlight() {
    super("stale answers: one call per key in flight", Annotated.class, Decoy.class);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.staleIfError(s -> s.fresh(annotatedValues ? "10s" : "0ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.staleIfError(call, s -> s.fresh("10s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(env("STALEIFERROR", call, "FRESH"), "10s");
  }

  @Override
  void run(Cell cell) throws Exception {
    cell.script.then(HOLD);
    CompletableFuture<String> leader = cell.start("a", "v");
    cell.awaitInvocations(1);
    CompletableFuture<String> follower = cell.start("a", "v");

    assertEquals("v2", cell.call("b", "v"), "another key is not held up");
    // The follower has had time to call, had it been going to; it must still be waiting.
    LockSupport.parkNanos(200_000_000L);
    assertFalse(follower.isDone(), "the follower waits for the leader");
    assertEquals(2, cell.script.invocations.get(), "the follower did not call");

    cell.script.releaseHeld();
    assertEquals("v1", cell.settle(leader));
    assertEquals("v1", cell.settle(follower), "the follower shares the leader's answer");
    assertEquals(2, cell.script.invocations.get());
  }

  @Override
  String streamCannot(String stream) {
    return "stale answers on a " + stream + " method are a compile error (" + unsupported(stream) + "): a stream has no one result to remember";
  }
}
