package dev.brace.runtime.internal.policy;

import dev.brace.runtime.support.LambdaCalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Timeout;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The per-thread deadlines and the watchdog that fires them: each attempt's own deadline, never
 * an earlier attempt's; a deadline per level when a timeout runs inside itself; many threads at
 * once on a real scheduler; an abandoned attempt in the caller's context.
 */
class TimeoutWatchdogTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
    MDC.clear();
  }

  private ResilientCall timeout(Registry in, String duration, Timeout.Mode mode) {
    return in.resolve(LambdaCalls.builder("C.m").with(TimeoutConfig.builder("C.m").duration(duration).mode(mode)).build());
  }

  @Test
  void aReusedDeadlineFiresForItsOwnAttemptNotForAnEarlierOne() throws Throwable {
    ResilientCall guard = timeout(registry, "1s", Timeout.Mode.INTERRUPT);
    assertEquals("in time", LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofMillis(900));
      return "in time";
    }, null));

    long second = clock.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofHours(1));
      return "too late";
    }, null));

    assertEquals(Duration.ofSeconds(1), Duration.ofNanos(clock.nanoTime() - second),
        "the first attempt's deadline (100 ms into this one) did not fire");
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void aTimeoutInsideItselfGetsADeadlineOfItsOwn() {
    ResilientCall guard = timeout(registry, "1s", Timeout.Mode.INTERRUPT);
    long start = clock.nanoTime();
    List<String> seen = new CopyOnWriteArrayList<>();

    // The inner call's own deadline would be 1.5 s; it inherits the outer one's (1 s), which ends
    // both: the inner call ran out of its caller's time, the outer one timed out.
    assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofMillis(500));
      try {
        return LambdaCalls.call(guard, () -> {
          clock.sleep(Duration.ofHours(1));
          return "inner too late";
        }, null);
      } catch (Throwable inner) {
        seen.add(inner.getClass().getSimpleName() + " after " + Duration.ofNanos(clock.nanoTime() - start).toMillis() + " ms");
        throw inner;
      }
    }, null));

    assertEquals(Duration.ofSeconds(1), Duration.ofNanos(clock.nanoTime() - start));
    assertEquals(List.of("DeadlineExceededException after 1000 ms"), seen);
    clock.advance(Duration.ofSeconds(5));
    assertFalse(Thread.currentThread().isInterrupted(), "the inner deadline, disarmed, never fires later");
  }

  @Test
  void afterALimiterTheDeadlineCountsFromAdmissionAndAfterAnyWait() throws Throwable {
    ResilientCall guard = registry.resolve(LambdaCalls.builder("C.m")
        .with(RateLimitConfig.builder("limiter").permits(1).per("1s").burst(1).maxWait("5s"))
        .with(BulkheadConfig.builder("bulkhead").maxConcurrent(2))
        .with(TimeoutConfig.builder("C.m").duration("1s")).build());
    long start = clock.nanoTime();
    assertEquals("fast", LambdaCalls.call(guard, () -> "fast", null));

    // The bucket is empty: this call waits a second for its token, then has its own full second.
    assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofHours(1));
      return "too late";
    }, null));
    assertEquals(Duration.ofSeconds(2), Duration.ofNanos(clock.nanoTime() - start));

    // A token is there now: no wait, and the deadline counts from the limiter's own reading.
    clock.advance(Duration.ofSeconds(1));
    long third = clock.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofHours(1));
      return "too late";
    }, null));
    assertEquals(Duration.ofSeconds(1), Duration.ofNanos(clock.nanoTime() - third));
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void manyThreadsOnARealSchedulerAreInterruptedOnlyWhenTheirOwnAttemptIsLate() throws Exception {
    ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
    ExecutorService callers = Executors.newFixedThreadPool(4);
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(50);
    try {
      Registry real = Registry.builder().scheduler(scheduler).build();
      ResilientCall guard = timeout(real, "50ms", Timeout.Mode.INTERRUPT);
      AtomicInteger lateTimedOut = new AtomicInteger();
      List<String> wrong = new CopyOnWriteArrayList<>();
      List<Future<?>> done = new CopyOnWriteArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        int caller = thread;
        done.add(callers.submit(() -> {
          for (int call = 0; call < 2_000; call++) {
            boolean late = caller == 0 && call % 500 == 0;
            long start = System.nanoTime();
            try {
              LambdaCalls.call(guard, () -> {
                if (late) {
                  Thread.sleep(10_000);
                }
                return "ok";
              }, null);
              if (late) {
                wrong.add("a late attempt was not interrupted");
              }
            } catch (TimeoutExceededException timedOut) {
              // A loaded machine may hold an attempt in time past its deadline: it then times out
              // rightly. Firing before the deadline would be the watchdog's error.
              if (System.nanoTime() - start < timeoutNanos) {
                wrong.add("timed out after " + (System.nanoTime() - start) + " ns");
              } else if (late) {
                lateTimedOut.incrementAndGet();
              }
            } catch (Throwable unexpected) {
              wrong.add(unexpected.toString());
            }
            if (Thread.currentThread().isInterrupted()) {
              wrong.add("an interrupt was left behind");
            }
          }
          return null;
        }));
      }
      for (Future<?> each : done) {
        each.get(60, TimeUnit.SECONDS);
      }
      assertEquals(4, lateTimedOut.get(), "each late attempt timed out");
      assertEquals(List.of(), wrong, "no deadline fired early, for another attempt, or left an interrupt");
    } finally {
      callers.shutdownNow();
      scheduler.shutdownNow();
    }
  }

  @Test
  void anAbandonedAttemptRunsInTheCallersContextAndItsWorkerIsInterruptedOnce() throws Throwable {
    ResilientCall guard = timeout(registry, "1s", Timeout.Mode.ABANDON);
    MDC.put("request", "r-9");
    List<String> seen = new CopyOnWriteArrayList<>();

    assertEquals("answered", LambdaCalls.call(guard, () -> {
      seen.add(MDC.get("request"));
      return "answered";
    }, null));

    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Thread caller = new Thread(() -> {
      try {
        LambdaCalls.call(guard, () -> {
          running.countDown();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException expected) {
            interrupted.countDown();
          }
          return "late";
        }, null);
      } catch (TimeoutExceededException expected) {
        seen.add("timed out");
      }
    });
    caller.start();
    assertTrue(running.await(10, TimeUnit.SECONDS));
    clock.advance(Duration.ofSeconds(1));
    caller.join(10_000);

    assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the worker was interrupted");
    assertEquals(List.of("r-9", "timed out"), seen);
  }
}
