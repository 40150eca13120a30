package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualTimeSourceTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  @Test
  void advanceRunsDueTasksInTimeOrderAtTheirDueTime() {
    List<String> ran = new ArrayList<>();
    long start = clock.nanoTime();
    clock.scheduler().schedule(() -> ran.add("b@" + (clock.nanoTime() - start)), 200, TimeUnit.MILLISECONDS);
    clock.scheduler().schedule(() -> ran.add("a@" + (clock.nanoTime() - start)), 100, TimeUnit.MILLISECONDS);
    clock.scheduler().schedule(() -> ran.add("late"), 1, TimeUnit.SECONDS);

    clock.advance(Duration.ofMillis(500));

    assertEquals(List.of("a@100000000", "b@200000000"), ran);
    assertEquals(start + 500_000_000L, clock.nanoTime());
  }

  @Test
  void sleepAdvancesAndReturnsAtOnce() throws InterruptedException {
    long start = clock.nanoTime();
    clock.sleep(Duration.ofSeconds(3));
    assertEquals(start + 3_000_000_000L, clock.nanoTime());
  }

  @Test
  void aSleepInterruptedByADueTaskStopsAtThatInstant() {
    long start = clock.nanoTime();
    Thread self = Thread.currentThread();
    clock.scheduler().schedule(self::interrupt, 1, TimeUnit.SECONDS);

    assertThrows(InterruptedException.class, () -> clock.sleep(Duration.ofSeconds(5)));

    assertEquals(start + 1_000_000_000L, clock.nanoTime());
    assertFalse(Thread.currentThread().isInterrupted(), "like Thread.sleep, the flag is cleared");
  }

  @Test
  void cancelledTasksDoNotRunAndPeriodicTasksRepeat() {
    List<Long> ticks = new ArrayList<>();
    ScheduledFuture<?> cancelled = clock.scheduler().schedule(() -> ticks.add(-1L), 1, TimeUnit.SECONDS);
    clock.scheduler().scheduleAtFixedRate(() -> ticks.add(clock.nanoTime()), 1, 1, TimeUnit.SECONDS);
    assertTrue(cancelled.cancel(false));

    clock.advance(Duration.ofMillis(3500));

    assertEquals(3, ticks.size());
    assertFalse(ticks.contains(-1L));
  }

  @Test
  void refusesNegativeAdvance() {
    assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofMillis(-1)));
    assertThrows(NullPointerException.class, () -> clock.advance(null));
  }
}
