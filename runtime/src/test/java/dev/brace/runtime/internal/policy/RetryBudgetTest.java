package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** retries over the ttl window ≤ percentCanRetry · calls + minRetriesPerSecond · ttl. */
class RetryBudgetTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  private int withdrawAll(RetryBudget budget) {
    int granted = 0;
    while (budget.tryWithdraw()) {
      granted++;
    }
    return granted;
  }

  @Test
  void withNoTrafficOnlyTheReserveIsAllowed() {
    RetryBudget budget = new RetryBudget("b", 0.2, 10, Duration.ofSeconds(10), clock);
    assertEquals(100, budget.available());
    assertEquals(100, withdrawAll(budget), "10 per second over 10 s");
  }

  @Test
  void steadyLoadAllowsTheConfiguredShareOfCalls() {
    RetryBudget budget = new RetryBudget("b", 0.2, 0, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 1000; i++) {
      budget.deposit();
    }
    assertEquals(200, withdrawAll(budget));
  }

  @Test
  void aBurstOfFailuresCannotSpendMoreThanTheFormula() {
    RetryBudget budget = new RetryBudget("b", 0.1, 1, Duration.ofSeconds(10), clock);
    int granted = 0;
    for (int call = 0; call < 500; call++) {
      budget.deposit();
      for (int retry = 0; retry < 3; retry++) {
        if (budget.tryWithdraw()) {
          granted++;
        }
      }
    }
    assertEquals((int) (0.1 * 500 + 1 * 10), granted);
  }

  @Test
  void theWindowSlidesSoOldCallsAndRetriesExpire() {
    RetryBudget budget = new RetryBudget("b", 0.5, 0, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 100; i++) {
      budget.deposit();
    }
    assertEquals(50, withdrawAll(budget));
    clock.advance(Duration.ofSeconds(5));
    assertFalse(budget.tryWithdraw(), "half the window later the first deposits still count, and are spent");
    for (int i = 0; i < 10; i++) {
      budget.deposit();
    }
    assertEquals(5, withdrawAll(budget));
    clock.advance(Duration.ofMillis(5001));
    assertEquals(0, budget.available(), "the first 100 calls and 50 retries expired; 10 calls and 5 retries remain");
    clock.advance(Duration.ofSeconds(10));
    assertEquals(0, budget.available());
    budget.deposit();
    budget.deposit();
    assertEquals(1, budget.available(), "everything before expired");
  }

  @Test
  void concurrentWithdrawalsNeverExceedTheFormula() throws Exception {
    RetryBudget budget = new RetryBudget("b", 0.2, 0, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 1000; i++) {
      budget.deposit();
    }
    AtomicInteger granted = new AtomicInteger();
    CyclicBarrier start = new CyclicBarrier(8);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        for (int i = 0; i < 100; i++) {
          if (budget.tryWithdraw()) {
            granted.incrementAndGet();
          }
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(200, granted.get());
  }

  @Test
  void newSettingsKeepWhatWasCountedAndJudgeItByTheNewShare() {
    RetryBudget budget = new RetryBudget("b", 0.5, 0, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 10; i++) {
      budget.deposit();
    }
    assertEquals(5, budget.available());

    budget.reconfigure(0.2, 0, Duration.ofSeconds(10));

    assertEquals(2, budget.available(), "the same 10 calls, a fifth of them now");
  }

  @Test
  void newSettingsOfTheSameTtlLeaveTheCountedCallsToExpireWhenTheyWouldHave() {
    RetryBudget budget = new RetryBudget("b", 0.5, 0, Duration.ofSeconds(10), clock);
    for (int i = 0; i < 10; i++) {
      budget.deposit();
    }

    budget.reconfigure(0.8, 0, Duration.ofSeconds(10));
    clock.advance(Duration.ofMillis(9_999));
    assertEquals(8, budget.available(), "still within the 10 s window");
    clock.advance(Duration.ofMillis(1));
    assertEquals(0, budget.available(), "10 s after they were counted, as without the switch");
  }

  @Test
  void aLongerTtlLetsWhatWasCountedAgeOutOverTheNewSpanInTheOrderItWasCounted() {
    RetryBudget budget = new RetryBudget("b", 0.5, 0, Duration.ofSeconds(10), clock);
    // Instants below are the clock's own; it starts at 1 s, and slices begin at multiples of their length.
    clock.advance(Duration.ofMillis(2_500));
    for (int i = 0; i < 4; i++) {
      budget.deposit();
    }
    clock.advance(Duration.ofSeconds(2));
    for (int i = 0; i < 6; i++) {
      budget.deposit();
    }
    assertEquals(5, budget.available());

    // At 5.5 s: slices of 2 s from now on. The six calls are in the newest slice, the four two
    // slices older (of 1 s then; of 2 s now).
    budget.reconfigure(0.5, 0, Duration.ofSeconds(20));
    assertEquals(5, budget.available(), "nothing counted is lost by the switch");

    clock.advance(Duration.ofMillis(6_500));
    assertEquals(5, budget.available(), "at 12 s, well within the new 20 s span, all ten still count");
    clock.advance(Duration.ofSeconds(8));
    assertEquals(3, budget.available(), "at 20 s the four, older by two slices, have aged out; the six have not");
    clock.advance(Duration.ofSeconds(4));
    assertEquals(0, budget.available(), "at 24 s the six have aged out too: the new span after the switch");
  }

  @Test
  void readingWhatTheBudgetAllowsLeavesItFreeForOtherThreads() throws Exception {
    RetryBudget budget = new RetryBudget("b", 0, 1, Duration.ofSeconds(10), clock);
    assertEquals(10, budget.available());
    assertTrue(java.util.concurrent.CompletableFuture.supplyAsync(budget::tryWithdraw)
        .get(30, java.util.concurrent.TimeUnit.SECONDS), "another thread withdraws after a read");
    assertEquals(9, budget.available());
  }

  @Test
  void eachSettingIsAcceptedUpToItsBounds() {
    RetryBudget everyCall = new RetryBudget("b", 1, 0, Duration.ofSeconds(60), clock);
    for (int i = 0; i < 7; i++) {
      everyCall.deposit();
    }
    assertEquals(7, everyCall.available(), "percentCanRetry 1: every call may be retried once");
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", -0.01, 0, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", 1.01, 0, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", Double.NaN, 0, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class,
        () -> new RetryBudget("b", 0.2, Double.POSITIVE_INFINITY, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", 0.2, 1, Duration.ofMillis(60_001), clock));
  }

  @Test
  void badSettingsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", 1.5, 0, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", 0.2, -1, Duration.ofSeconds(10), clock));
    assertThrows(IllegalArgumentException.class, () -> new RetryBudget("b", 0.2, 1, Duration.ofMillis(999), clock));
    assertTrue(new RetryBudget("b", 0, 0, Duration.ofSeconds(1), clock).available() == 0);
  }

  @Test
  void aReconfigurationLetsGoOfTheBudgetForEveryOtherThread() throws Exception {
    RetryBudget budget = new RetryBudget("b", 0.2, 10, Duration.ofSeconds(10), clock);
    budget.reconfigure(0.2, 20, Duration.ofSeconds(10));
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      Future<Long> available = other.submit(budget::available);
      assertEquals(200, available.get(10, TimeUnit.SECONDS), "another thread reads the budget after a reconfiguration");
      assertTrue(other.submit(budget::tryWithdraw).get(10, TimeUnit.SECONDS));
    } finally {
      other.shutdownNow();
    }
  }
}
