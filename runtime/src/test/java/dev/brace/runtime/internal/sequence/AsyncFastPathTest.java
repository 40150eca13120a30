package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import static dev.brace.runtime.internal.sequence.AsyncFixture.retry;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * An attempt whose future is complete before the call returns, answered on the caller's thread;
 * and what is handed on when it is not: permits held, the caller's context on the scheduler.
 */
class AsyncFastPathTest {
  private final AsyncFixture fixture = new AsyncFixture();

  @AfterEach
  void clearMdc() {
    MDC.clear();
  }

  private ResilientCall fourPatterns(RetryConfig.Builder retry) {
    return fixture.resolve(call -> call
        .with(retry)
        .with(CircuitBreakerConfig.builder("b").failureThreshold(5))
        .with(RateLimitConfig.builder("l").permits(1000).per("1s"))
        .with(BulkheadConfig.builder("h").maxConcurrent(1).maxWait("1s")));
  }

  @Test
  void aFutureCompleteBeforeTheCallReturnsIsAnsweredAtOnceAndHoldsNothing() {
    ResilientCall guard = fourPatterns(retry());

    CompletableFuture<String> answer = LambdaCalls.callAsync(guard, () -> CompletableFuture.completedFuture("ready"), null);

    assertTrue(answer.isDone());
    assertEquals("ready", valueOf(answer));
    assertEquals(1, fixture.registry.bulkhead("h").available(), "the permit is back");
    assertEquals(CircuitState.CLOSED, fixture.registry.circuitBreaker("b").state());
  }

  @Test
  void aPlainFutureCompleteBeforeTheCallReturnsIsHandedBackItselfWithOrWithoutAFrame() {
    CompletableFuture<String> ready = CompletableFuture.completedFuture("ready");
    // No predicate: no frame. A retry's result predicate: the frame's attempt state.
    ResilientCall withoutFrame = fourPatterns(retry());
    ResilientCall withFrame = fourPatterns(retry().onResult((String value) -> false));

    assertSame(ready, LambdaCalls.callAsync(withoutFrame, () -> ready, null));
    assertSame(ready, LambdaCalls.callAsync(withFrame, () -> ready, null));
    assertEquals(1, fixture.registry.bulkhead("h").available(), "the permit is back");
  }

  @Test
  void aCompletedStageThatIsNoPlainFutureIsAnsweredByAPlainCopy() {
    ResilientCall guard = fourPatterns(retry());
    CompletableFuture<String> subclass = new CompletableFuture<>() {};
    subclass.complete("subclass");
    CompletionStage<String> minimal = CompletableFuture.completedStage("minimal");

    CompletableFuture<String> fromSubclass = LambdaCalls.callAsync(guard, () -> subclass, null);
    CompletableFuture<String> fromMinimal = LambdaCalls.callAsync(guard, () -> minimal, null);

    assertNotSame(subclass, fromSubclass);
    assertEquals(CompletableFuture.class, fromSubclass.getClass());
    assertEquals("subclass", valueOf(fromSubclass));
    assertEquals(CompletableFuture.class, fromMinimal.getClass());
    assertEquals("minimal", valueOf(fromMinimal));
  }

  @Test
  void aBreakersResultPredicateJudgesTheValueNotTheFutureHandedBack() {
    List<Object> judged = new CopyOnWriteArrayList<>();
    ResilientCall guard = fixture.resolve(call -> call
        .with(CircuitBreakerConfig.builder("b").failureThreshold(1).onResult(value -> judged.add(value) && false)));
    CompletableFuture<String> ready = CompletableFuture.completedFuture("ready");

    assertSame(ready, LambdaCalls.callAsync(guard, () -> ready, null));
    assertEquals(List.of("ready"), judged);
  }

  @Test
  void aResultPredicateIsAskedOncePerAttempt() {
    AtomicInteger asked = new AtomicInteger();
    ResilientCall guard = fourPatterns(retry().onResult((String value) -> {
      asked.incrementAndGet();
      return value.equals("busy");
    }));
    AtomicInteger attempts = new AtomicInteger();

    CompletableFuture<String> answer = LambdaCalls.callAsync(guard, 
        () -> CompletableFuture.completedFuture(attempts.incrementAndGet() < 3 ? "busy" : "done"), null);
    fixture.advance("100");
    fixture.advance("100");

    assertEquals("done", valueOf(answer));
    assertEquals(3, attempts.get());
    assertEquals(3, asked.get(), "the first attempt's result was judged once, though the driver took over after it");
  }

  @Test
  void aFirstAttemptThatMustWaitForTheBulkheadWaitsOnTheSchedulerAndHoldsNothingAfter() {
    ResilientCall guard = fourPatterns(retry());
    CompletableFuture<String> holding = LambdaCalls.callAsync(guard, fixture.delegate, null);

    CompletableFuture<String> second = LambdaCalls.callAsync(guard, () -> CompletableFuture.completedFuture("second"), null);
    assertEquals(false, second.isDone(), "the bulkhead is full: the call waits on the scheduler");
    fixture.delegate.last().complete("first");
    fixture.advance("100");

    assertEquals("first", valueOf(holding));
    assertEquals("second", valueOf(second));
    assertEquals(1, fixture.registry.bulkhead("h").available());
  }

  @Test
  void retriesOnTheSchedulerSeeTheCallersContextAndLeaveTheThreadsOwn() {
    ResilientCall guard = fourPatterns(retry());
    List<String> seen = new CopyOnWriteArrayList<>();
    AtomicInteger attempts = new AtomicInteger();

    MDC.put("request", "caller");
    CompletableFuture<String> answer = LambdaCalls.callAsync(guard, () -> {
      seen.add(MDC.get("request"));
      return attempts.incrementAndGet() < 3
          ? CompletableFuture.failedFuture(new IOException("busy"))
          : CompletableFuture.completedFuture("done");
    }, null);
    // The scheduler's tasks run on this thread as it moves manual time, holding another context.
    MDC.put("request", "driver");
    fixture.advance("100");
    fixture.advance("100");

    assertEquals("done", valueOf(answer));
    assertEquals(List.of("caller", "caller", "caller"), seen);
    assertEquals("driver", MDC.get("request"), "the thread has its own context back");
  }
}
