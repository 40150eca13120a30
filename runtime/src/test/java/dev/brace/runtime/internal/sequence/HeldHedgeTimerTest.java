package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.onAnotherThread;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;

/**
 * A hedge's timer whose task had already started when the group was decided: cancelling it can
 * no longer stop it, and it reaches the group after the decision, on the scheduler's thread. It
 * must find the group over and return, whichever thread decided and whatever that thread did
 * since. Here the scheduler only keeps its tasks (a cancel finds each one already running), and
 * the test runs the kept task itself once the call is over.
 */
class HeldHedgeTimerTest {
  private final List<Runnable> started = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService alreadyRunning = (ScheduledExecutorService) Proxy.newProxyInstance(
      ScheduledExecutorService.class.getClassLoader(), new Class<?>[] {ScheduledExecutorService.class},
      (self, method, arguments) -> {
        if (!method.getName().equals("schedule")) {
          throw new UnsupportedOperationException(method.getName());
        }
        started.add((Runnable) arguments[0]);
        return runningTask();
      });

  /** A task that has begun: it can no longer be cancelled. */
  private static ScheduledFuture<?> runningTask() {
    return (ScheduledFuture<?>) Proxy.newProxyInstance(
        ScheduledFuture.class.getClassLoader(), new Class<?>[] {ScheduledFuture.class},
        (self, method, arguments) -> {
          switch (method.getName()) {
            case "cancel":
            case "isCancelled":
            case "isDone":
              return false;
            case "hashCode":
              return System.identityHashCode(self);
            case "equals":
              return self == arguments[0];
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  @Test
  void aTimerThatStartedAsASynchronousCallReturnedFindsTheGroupOver() throws Throwable {
    ManualTimeSource clock = new ManualTimeSource();
    EventBus bus = new EventBus(Clock.systemUTC());
    HedgePolicy policy = new HedgePolicy(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1).build(), CALL, bus, null, false);
    Executor workers = task -> {
      Thread worker = new Thread(task, "hedge-worker");
      worker.setDaemon(true);
      worker.start();
    };
    CallPolicies policies = CallPolicies.builder(LambdaCalls.builder(CALL).build(), clock, bus, () -> alreadyRunning)
        .hedge(policy, workers).build();

    Object answer = SyncHedgeGroup.run(policies, CallKeys.NONE, () -> "first");

    assertEquals("first", answer);
    assertEquals(1, started.size(), "the timer of the hedge");
    onAnotherThread(started.get(0));
  }

  @Test
  void aTimerThatStartedAsAnAnswerDecidedTheGroupFindsItOver() {
    AsyncFixture fixture = new AsyncFixture(registry -> registry.scheduler(alreadyRunning));
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, fixture.delegate, null);
    fixture.delegate.last().complete("first");

    assertEquals("first", valueOf(result));
    assertEquals(1, started.size());
    onAnotherThread(started.get(0));
    assertEquals(1, fixture.delegate.attempts(), "no hedge after the decision");
  }

  @Test
  void aTimerThatStartedAsTheCallerGaveUpFindsTheGroupOver() {
    AsyncFixture fixture = new AsyncFixture(registry -> registry.scheduler(alreadyRunning));
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, fixture.delegate, null);
    result.cancel(true);

    assertTrue(fixture.delegate.last().isCancelled());
    assertEquals(1, started.size());
    onAnotherThread(started.get(0));
    assertEquals(1, fixture.delegate.attempts(), "no hedge after the caller gave up");
  }
}
