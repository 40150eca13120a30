package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Deadline;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import org.junit.jupiter.api.Test;

/**
 * Deadlines under load, on the real clock: many threads each open a random budget and call an
 * outer stack (bulkhead, timeout) whose attempt calls an inner one (retry, breaker, bulkhead,
 * timeout) against a dependency that is slow at random or fails — sync and async, nested. No call
 * may outlive its deadline by more than the scheduling slack of a loaded machine, and between
 * phases, with every thread stopped, no bulkhead permit is held and no thread is left under a
 * deadline.
 */
class DeadlineStressTest {
  private static final int THREADS = 8;
  /** How late a call may end past its deadline on a busy two-core machine: timers and wake-ups run late. */
  private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(400);

  private static final ScheduledExecutorService DEPENDENCY = Executors.newScheduledThreadPool(2, runnable -> {
    Thread thread = new Thread(runnable, "deadline-stress-dependency");
    thread.setDaemon(true);
    return thread;
  });

  @Test
  void noCallOutlivesItsDeadlineAndNoPermitIsLost() throws Exception {
    Report report = new Report("stress-deadlines");
    int phases = Budget.pick(30, 400);
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    Stack<String> inner = Stack.<String>builder("Stress.inner")
        .retry(r -> r.maxAttempts(3).delay("2ms").on(IOException.class))
        .circuitBreaker("stress-inner", b -> b.failureThreshold(1_000_000))
        .bulkhead("stress-inner", b -> b.maxConcurrent(2).maxWait("1s"))
        .timeout(t -> t.duration("500ms"))
        .build(registry);
    Stack<String> outer = Stack.<String>builder("Stress.outer")
        .bulkhead("stress-outer", b -> b.maxConcurrent(4).maxWait("1s"))
        .timeout(t -> t.duration("1s"))
        .build(registry);
    LongAccumulator worstOverrun = new LongAccumulator(Math::max, Long.MIN_VALUE);
    AtomicLong calls = new AtomicLong();
    AtomicLong cut = new AtomicLong();

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          ThreadLocalRandom dice = ThreadLocalRandom.current();
          for (int i = 0; i < 5; i++) {
            long budget = TimeUnit.MILLISECONDS.toNanos(dice.nextLong(5, 60));
            boolean async = dice.nextBoolean();
            long start = System.nanoTime();
            boolean ok;
            try (Deadline.Scope scope = Deadline.open(Duration.ofNanos(budget))) {
              ok = async ? callAsync(outer, inner) : call(outer, inner);
            }
            long overrun = System.nanoTime() - start - budget;
            worstOverrun.accumulate(overrun);
            calls.incrementAndGet();
            if (!ok) {
              cut.incrementAndGet();
            }
            assertTrue(overrun <= SLACK_NANOS, (async ? "an async" : "a sync") + " call outlived its deadline by "
                + TimeUnit.NANOSECONDS.toMillis(overrun) + " ms");
            assertEquals(Optional.empty(), Deadline.current(), "the scope left the thread as it found it");
          }
        },
        endedPhase -> {
          assertEquals(0, registry.bulkhead("stress-outer").inFlight(), "an outer permit was lost");
          assertEquals(0, registry.bulkhead("stress-inner").inFlight(), "an inner permit was lost");
        },
        120);

    report.put("threads", THREADS).put("calls", calls.get()).put("cut_short", cut.get())
        .put("worst_overrun_ms", TimeUnit.NANOSECONDS.toMillis(worstOverrun.get())).print();
    assertTrue(cut.get() > 0, "budgets this short must cut some calls, else nothing was tested");
  }

  /** @return whether the call returned */
  private static boolean call(Stack<String> outer, Stack<String> inner) {
    try {
      outer.call(() -> inner.call(DeadlineStressTest::slowOrFailing));
      return true;
    } catch (Exception ranOutOrFailed) {
      return false;
    }
  }

  private static String slowOrFailing() throws Exception {
    ThreadLocalRandom dice = ThreadLocalRandom.current();
    if (dice.nextInt(5) == 0) {
      throw new IOException("down");
    }
    Thread.sleep(dice.nextLong(0, 40));
    return "v";
  }

  private static boolean callAsync(Stack<String> outer, Stack<String> inner) {
    CompletableFuture<String> future = outer.callAsync(() -> inner.callAsync(DeadlineStressTest::slowOrFailingLater));
    try {
      future.get(30, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException ranOutOrFailed) {
      return false;
    } catch (Exception stuck) {
      throw new AssertionError("an async call did not end", stuck);
    }
  }

  private static CompletableFuture<String> slowOrFailingLater() {
    ThreadLocalRandom dice = ThreadLocalRandom.current();
    CompletableFuture<String> later = new CompletableFuture<>();
    boolean fails = dice.nextInt(5) == 0;
    DEPENDENCY.schedule(() -> {
      if (fails) {
        later.completeExceptionally(new IOException("down"));
      } else {
        later.complete("v");
      }
    }, dice.nextLong(0, 40), TimeUnit.MILLISECONDS);
    return later;
  }
}
