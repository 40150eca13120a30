package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The hedge's timer of an asynchronous group on manual time: armed only while a further hedge may
 * still start, and cancelled as soon as none will. A timer left behind would find the group over
 * when it fires, but until then it holds the group (and the call's arguments) on the scheduler.
 */
class AsyncHedgeTimerTest {
  private final RecordingScheduler scheduler = new RecordingScheduler();
  private final AsyncFixture fixture = new AsyncFixture(registry -> registry.scheduler(scheduler.proxy));
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  {
    scheduler.target = fixture.time.scheduler();
  }

  private static HedgeConfig.Builder hedge() {
    return HedgeConfig.builder(CALL).delay("100ms").maxHedges(2);
  }

  @Test
  void anAnswerWithinTheDelayCancelsTheTimerOfTheNextHedge() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, scheduler.pending().size(), "the timer of hedge 2");

    fixture.advance("50");
    delegate.last().complete("first");

    assertEquals("first", valueOf(result));
    assertTrue(scheduler.pending().isEmpty(), "nothing left on the scheduler: " + scheduler.pending());
  }

  @Test
  void aGroupEndedByTheRefusalOfItsOnlyAttemptCancelsItsTimer() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> holder = LambdaCalls.callAsync(guard, delegate, null);
    List<ScheduledFuture<?>> heldByTheHolder = scheduler.pending();
    assertEquals(1, heldByTheHolder.size());

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);

    assertInstanceOf(BulkheadFullException.class, failureOf(refused));
    assertEquals(heldByTheHolder, scheduler.pending(), "the refused call's timer is cancelled with its group");
    delegate.last().complete("held");
    assertEquals("held", valueOf(holder));
  }

  @Test
  void theLastHedgeArmsNoFurtherTimer() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge().maxHedges(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");

    assertEquals(2, delegate.attempts(), "hedge 1 started: no attempt remains");
    assertTrue(scheduler.pending().isEmpty(), "no timer once every attempt has started: " + scheduler.pending());
    delegate.last().complete("second");
    assertEquals("second", valueOf(result));
  }

  @Test
  void aDelayOfZeroStartsEveryHedgeWithoutTheScheduler() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge().delay("0ms")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    assertEquals(3, delegate.attempts());
    assertEquals(0, scheduler.scheduled.size(), "no timer is armed for a hedge that starts at once");
    delegate.last().complete("third");
    assertEquals("third", valueOf(result));
  }

  /** The manual time's scheduler, keeping every task handed to it. */
  static final class RecordingScheduler {
    final List<ScheduledFuture<?>> scheduled = new CopyOnWriteArrayList<>();
    volatile ScheduledExecutorService target;
    final ScheduledExecutorService proxy = (ScheduledExecutorService) Proxy.newProxyInstance(
        ScheduledExecutorService.class.getClassLoader(), new Class<?>[] {ScheduledExecutorService.class},
        (self, method, arguments) -> {
          Object answer;
          try {
            answer = method.invoke(target, arguments);
          } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
          }
          if (answer instanceof ScheduledFuture) {
            scheduled.add((ScheduledFuture<?>) answer);
          }
          return answer;
        });

    /** @return the tasks neither run nor cancelled yet */
    List<ScheduledFuture<?>> pending() {
      return scheduled.stream().filter(task -> !task.isDone()).collect(Collectors.toList());
    }
  }
}
