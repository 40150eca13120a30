package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.event.EventBus;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread's attempts under one timeout reuse one deadline: however many calls it makes, the
 * watchdog watches one deadline for it, kept for as long as the thread lives, rather than one
 * more per call.
 */
class TimeoutPolicyDeadlineReuseTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Executor noWorkers = task -> {
    throw new AssertionError("an interrupting timeout runs the attempt on the caller's thread");
  };
  private final TimeoutPolicy timeout = new TimeoutPolicy(TimeoutConfig.builder("T").duration("1s").build(), "C.m",
      clock, clock.scheduler(), noWorkers, new EventBus(Clock.systemUTC()));

  @Test
  void eachThreadsCallsUnderOneTimeoutShareOneDeadline() throws Throwable {
    for (int call = 0; call < 3; call++) {
      assertEquals("in time", timeout.call(() -> "in time", clock.nanoTime() + timeout.nanos(), timeout.nanos(), timeout.mode(), timeout.ownExpiry()));
    }
    assertEquals(1, timeout.watchdog().watched(), "one deadline for this thread's three calls");

    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread other = new Thread(() -> {
      try {
        for (int call = 0; call < 3; call++) {
          timeout.call(() -> "in time", clock.nanoTime() + timeout.nanos(), timeout.nanos(), timeout.mode(), timeout.ownExpiry());
        }
      } catch (Throwable failure) {
        failed.set(failure);
      }
    });
    other.start();
    other.join(10_000);
    assertEquals(null, failed.get());
    assertEquals(2, timeout.watchdog().watched(), "and one for the other thread's");
  }
}
