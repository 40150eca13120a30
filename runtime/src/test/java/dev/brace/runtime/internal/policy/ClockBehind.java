package dev.brace.runtime.internal.policy;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeSource;
import java.time.Duration;

/**
 * A manual clock read a fixed span behind, so that its readings are negative, as those of {@link
 * System#nanoTime()} may be: code that compares instants by anything but their difference fails on it.
 * Time moves, and tasks run, on the manual clock underneath.
 */
final class ClockBehind implements TimeSource {
  private final ManualTimeSource clock;
  private final long behindNanos;

  /**
   * @param clock the manual clock underneath
   * @param behindNanos how far behind it this one reads; more than the clock's reading makes the readings negative
   */
  ClockBehind(ManualTimeSource clock, long behindNanos) {
    this.clock = clock;
    this.behindNanos = behindNanos;
  }

  @Override
  public long nanoTime() {
    return clock.nanoTime() - behindNanos;
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    clock.sleep(duration);
  }
}
