package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Hedged calls from many threads through the generated wrapper of {@link HedgeStressClient}, sync
 * and async, against a delegate with a heavy latency tail (a third of its answers 5–20 ms, the
 * rest at once) that fails now and then. The hedge's delay runs on a real scheduler; the registry's
 * clock stands still, so the retry budget's window holds the whole run and its formula can be
 * checked exactly. Between phases, with every call of the phase returned:
 *
 * <ul>
 *   <li>no synchronous attempt is still running and every asynchronous attempt's future is done
 *       (answered or cancelled);
 *   <li>neither bulkhead holds a permit;
 *   <li>no interrupt leaked: an attempt that begins with its thread's interrupt flag set, or is
 *       interrupted while it sleeps, throws an {@link AssertionError}. That decides its call at
 *       once, unless the attempt was one a decided group stopped (whose outcome nobody sees); so
 *       an interrupt that reaches an attempt nobody stopped surfaces as a call ending in an {@code
 *       AssertionError}. And no caller was left interrupted;
 *   <li>every call ended in exactly one outcome;
 *   <li>delegate invocations ≤ calls · (1 + maxHedges), and the hedges beyond the first attempts ≤
 *       {@code percentCanRetry · calls}: the budget held.
 * </ul>
 */
class HedgeStressTest {
  private static final int THREADS = 6;
  private static final int CALLS_PER_PHASE = 8;
  private static final int MAX_HEDGES = 2;
  private static final double PERCENT_CAN_RETRY = 0.5;

  private final AtomicInteger syncRunning = new AtomicInteger();
  private final AtomicLong invocations = new AtomicLong();
  private final AtomicLong interruptedAtStart = new AtomicLong();
  private final AtomicLong interruptedWhileRunning = new AtomicLong();
  private final ConcurrentLinkedQueue<CompletableFuture<String>> asyncAttempts = new ConcurrentLinkedQueue<>();
  private final ScheduledExecutorService answers = Executors.newScheduledThreadPool(2, daemon("stress-answers"));

  @Test
  void losersStopHoldNothingLeakNoInterruptAndTheBudgetHolds() throws Exception {
    Report report = new Report("stress-hedge");
    int phases = Budget.pick(60, 1_000);
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(daemon("stress-hedge-delays"));
    Registry registry = Registry.builder()
        .timeSource(new SteppedClock(1_000_000_000L))
        .scheduler(scheduler)
        .environment(Map.of())
        .systemProperties(Map.of())
        .retryBudget(HedgeStressClient.BUDGET, b -> b.percentCanRetry(PERCENT_CAN_RETRY).minRetriesPerSecond(0).ttl("60s"))
        .build();
    AtomicLong hedgesStarted = new AtomicLong();
    AtomicLong budgetRefusals = new AtomicLong();
    registry.subscribe(event -> {
      if (event.kind().equals("hedge.started")) {
        hedgesStarted.incrementAndGet();
      } else if (event.kind().equals("hedge.budget_exhausted")) {
        budgetRefusals.incrementAndGet();
      }
    });
    HedgeStressClient client = ResilientHedgeStressClient.wrap(new Delegate(), registry);
    AtomicLong calls = new AtomicLong();
    Map<String, AtomicLong> outcomes = Map.of(
        "ok", new AtomicLong(), "io", new AtomicLong(), "bulkhead_full", new AtomicLong());
    AtomicLong unexpected = new AtomicLong();
    AtomicLong callersLeftInterrupted = new AtomicLong();
    long[] checks = {0};

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          boolean async = thread % 2 == 1;
          for (int i = 0; i < CALLS_PER_PHASE; i++) {
            calls.incrementAndGet();
            String outcome;
            try {
              if (async) {
                client.callAsync(i).get(10, TimeUnit.SECONDS);
              } else {
                client.call(i);
              }
              outcome = "ok";
            } catch (ExecutionException failed) {
              outcome = kind(failed.getCause());
            } catch (Exception | AssertionError failed) {
              outcome = kind(failed);
            }
            if (outcome == null) {
              unexpected.incrementAndGet();
            } else {
              outcomes.get(outcome).incrementAndGet();
            }
            if (Thread.interrupted()) {
              callersLeftInterrupted.incrementAndGet();
            }
          }
        },
        endedPhase -> {
          if (endedPhase < 0) {
            return;
          }
          assertEquals(0, syncRunning.get(), "phase " + endedPhase + ": a synchronous attempt outlived its call");
          assertTrue(asyncAttempts.stream().allMatch(CompletableFuture::isDone),
              "phase " + endedPhase + ": an asynchronous attempt is neither answered nor cancelled");
          asyncAttempts.clear();
          assertEquals(0, registry.bulkhead("stress-hedge-sync").inFlight(), "phase " + endedPhase + ": sync permit held");
          assertEquals(0, registry.bulkhead("stress-hedge-async").inFlight(), "phase " + endedPhase + ": async permit held");
          assertEquals(0, callersLeftInterrupted.get(), "a caller was left interrupted");
          assertEquals(0, unexpected.get(), "a call ended in an unexpected way (a leaked interrupt ends one with an AssertionError)");
          long ended = outcomes.values().stream().mapToLong(AtomicLong::get).sum();
          assertEquals(calls.get(), ended, "every call ended in exactly one outcome");
          assertTrue(invocations.get() <= calls.get() * (1 + MAX_HEDGES),
              invocations.get() + " invocations for " + calls.get() + " calls");
          assertTrue(hedgesStarted.get() <= (long) Math.floor(PERCENT_CAN_RETRY * calls.get()),
              hedgesStarted.get() + " hedges for " + calls.get() + " calls, beyond the budget");
          assertTrue(invocations.get() <= calls.get() + hedgesStarted.get(),
              invocations.get() + " invocations, but only " + hedgesStarted.get() + " hedges started for " + calls.get() + " calls");
          checks[0]++;
        },
        120);
    assertTrue(hedgesStarted.get() > 0, "no hedge ever started: the test exercised nothing");
    assertTrue(interruptedWhileRunning.get() > 0, "no loser was ever interrupted: the test exercised nothing");
    report.put("phases", phases).put("threads", THREADS).put("calls", calls.get()).put("invocations", invocations.get())
        .put("hedges", hedgesStarted.get()).put("budget_refusals", budgetRefusals.get())
        .put("losers_interrupted", interruptedWhileRunning.get()).put("stopped_before_the_delegate", interruptedAtStart.get()).put("outcomes", outcomes.toString().replace(" ", ""))
        .put("phase_checks", checks[0])
        .put("invariants", "no-attempt-running,no-permit,no-interrupt-leak,one-outcome,invocations<=calls*(1+maxHedges),hedges<=budget")
        .print();
    scheduler.shutdownNow();
    answers.shutdownNow();
  }

  private static String kind(Throwable failure) {
    if (failure instanceof IOException) {
      return "io";
    }
    if (failure instanceof BulkheadFullException) {
      return "bulkhead_full";
    }
    return null;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A third of the answers are slow, one in ten fails; sync attempts answer interrupts. */
  private final class Delegate implements HedgeStressClient {
    @Override
    public String call(int id) throws IOException {
      invocations.incrementAndGet();
      if (Thread.currentThread().isInterrupted()) {
        // Either a stop that landed just before the delegate began (the call is decided, nobody
        // sees this), or a leak, which this Error makes the call's outcome.
        interruptedAtStart.incrementAndGet();
        throw new AssertionError("attempt " + id + " began with its thread's interrupt flag set");
      }
      syncRunning.incrementAndGet();
      try {
        ThreadLocalRandom dice = ThreadLocalRandom.current();
        if (dice.nextInt(3) == 0) {
          Thread.sleep(5 + dice.nextInt(16));
        }
        if (dice.nextInt(10) == 0) {
          throw new IOException("failed " + id);
        }
        return "ok " + id;
      } catch (InterruptedException stopped) {
        // A loser's stop (nobody sees this outcome), or an interrupt that leaked from an earlier
        // attempt of this thread, which this Error makes the call's outcome.
        interruptedWhileRunning.incrementAndGet();
        throw new AssertionError("attempt " + id + " interrupted", stopped);
      } finally {
        syncRunning.decrementAndGet();
      }
    }

    @Override
    public CompletableFuture<String> callAsync(int id) {
      invocations.incrementAndGet();
      CompletableFuture<String> answer = new CompletableFuture<>();
      asyncAttempts.add(answer);
      ThreadLocalRandom dice = ThreadLocalRandom.current();
      boolean fails = dice.nextInt(10) == 0;
      long delayMillis = dice.nextInt(3) == 0 ? 5 + dice.nextInt(16) : 0;
      Runnable settle = () -> {
        if (fails) {
          answer.completeExceptionally(new IOException("failed " + id));
        } else {
          answer.complete("ok " + id);
        }
      };
      if (delayMillis == 0) {
        settle.run();
      } else {
        answers.schedule(settle, delayMillis, TimeUnit.MILLISECONDS);
      }
      return answer;
    }
  }
}
