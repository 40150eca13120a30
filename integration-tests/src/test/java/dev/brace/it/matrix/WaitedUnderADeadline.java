package dev.brace.it.matrix;

import static dev.brace.it.matrix.Script.Step.HANG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.RateLimit;
import dev.brace.Timeout;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An attempt that first waits for a limiter token, under the caller's deadline: the wait counts
 * against the deadline, so the attempt after it is bound by what is left (not by its own 2 s
 * timeout) and passes that bound on to what the dependency calls — on the thread that runs it, which
 * for an asynchronous call is not the caller's (the cell calls it from a thread of its own). Without a deadline the timeout is the bound passed on. A token that would come only after the deadline is
 * given back and the call refused at once, so the next caller gets it without waiting longer (a
 * backend that drops it instead, as the contract allows, makes that caller wait for the next one). The
 * decoy's limiter never makes anyone wait and its 100 ms timeout would cut the attempt first.
 */
final class WaitedUnderADeadline extends Scenario {
  static final String LIMITER = "deadline-limiter";
  static final Duration DEADLINE = Duration.ofMillis(1500);
  static final Duration TOKEN_EVERY = Duration.ofSeconds(1);
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  @RateLimit(name = LIMITER, permits = 1, per = "1s", maxWait = "5s")
  @Timeout("2s")
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

  @RateLimit(name = LIMITER + DECOY, permits = 100, per = "1s", maxWait = "0ms")
  @Timeout("100ms")
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

  WaitedUnderADeadline() {
    super("waited attempt under a deadline", Annotated.class, Decoy.class);
  }

  @Override
  List<String> limiters() {
    return List.of(LIMITER);
  }

  @Override
  void parts(Stack.Builder<String> stack, boolean annotatedValues, Script script) {
    stack.rateLimit(named(LIMITER, annotatedValues), annotatedValues
            ? l -> l.permits(1).per("1s").maxWait("5s")
            : l -> l.permits(100).per("1s").maxWait("0ms"))
        .timeout(t -> t.duration(annotatedValues ? "2s" : "100ms"));
  }

  @Override
  void programmatic(Registry.Builder registry, String call) {
    registry.timeout(call, t -> t.duration("2s"))
        .rateLimit(decoy(LIMITER), l -> l.permits(1).per("1s").maxWait("5s"));
  }

  @Override
  Map<String, String> environment(String call) {
    return Map.of(
        env("TIMEOUT", call, "DURATION"), "2s",
        env("RATELIMIT", decoy(LIMITER), "PERMITS"), "1",
        env("RATELIMIT", decoy(LIMITER), "PER"), "1s",
        env("RATELIMIT", decoy(LIMITER), "MAX_WAIT"), "5s");
  }

  @Override
  void run(Cell cell) throws Exception {
    assertEquals("v1", cell.call("v"), "the first call takes the only token of this second");
    assertEquals(Optional.of(TIMEOUT), cell.script.deadlinesSeen.get(0), "without a deadline, the timeout is passed on");

    // Async calls are made from another thread than the one their attempt runs on after the wait.
    long start = cell.clock.nanoTime();
    assertEquals("v2", cell.callUnder(Duration.ofSeconds(5), "v"));
    assertEquals(TOKEN_EVERY, cell.since(start), "it waited for the next token");
    assertEquals(Optional.of(TIMEOUT), cell.script.deadlinesSeen.get(1),
        "the attempt's own bound, its timeout from admission, is tighter than the 4 s left of the deadline");

    cell.script.then(HANG);
    start = cell.clock.nanoTime();
    DeadlineExceededException cut = assertThrows(DeadlineExceededException.class, () -> cell.callUnder(DEADLINE, "v"));
    assertEquals(DEADLINE, cell.since(start), "cut at the deadline: the token's wait counted against it");
    assertEquals(DEADLINE, cut.timeout(), "it names the deadline's budget");
    assertEquals(3, cell.script.invocations.get(), "the attempt ran once its token came");
    assertEquals(Optional.of(DEADLINE.minus(TOKEN_EVERY)), cell.script.deadlinesSeen.get(2),
        "after a 1 s wait the dependency is given what is left of the deadline, not the 2 s timeout");
    if (cell.async()) {
      assertTrue(cell.script.abandoned.get(0).isCancelled(), "the inner future is cancelled");
    }

    // The next token comes 500 ms from now: beyond a 300 ms deadline, within the limiter's maxWait.
    long asked = cell.clock.nanoTime();
    assertThrows(DeadlineExceededException.class, () -> cell.callUnder(Duration.ofMillis(300), "v"),
        "a token after the deadline is of no use");
    assertEquals(Duration.ZERO, cell.since(asked), "refused at once, not after waiting in vain");
    assertEquals(3, cell.script.invocations.get());

    assertEquals("v4", cell.call("v"));
    if (cell.backend == BackendChoice.LOCAL) {
      assertEquals(Duration.ofMillis(500), cell.since(asked), "the token given back is the next caller's, not the one after it");
    } else {
      // The contract lets a backend drop a cancelled reservation (the test backend does): the next
      // caller then waits for the token after it, and is never admitted early.
      assertEquals(Duration.ofMillis(1500), cell.since(asked), "a dropped reservation admits no one early");
    }
    assertEquals(Optional.of(TIMEOUT), cell.script.deadlinesSeen.get(3), "no deadline is left open to pass on; the timeout is");
    if (cell.listening) {
      assertEquals(2, cell.events("deadline.exceeded").size(), "events " + cell.events);
      assertEquals(3, cell.events("ratelimit.waited").size(), "events " + cell.events);
    }
  }
}
