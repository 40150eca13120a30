package dev.brace.reliability;

import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when a test moves it, one atomic long, so that a model checker sees each
 * read and each step as one shared-memory access. {@link #sleep} only moves the clock.
 */
public final class SteppedClock implements TimeSource {
  private final AtomicLong now;

  /** @param startNanos the first reading */
  public SteppedClock(long startNanos) {
    this.now = new AtomicLong(startNanos);
  }

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void sleep(Duration duration) {
    now.addAndGet(Math.max(0, duration.toNanos()));
  }

  /** @param duration how far to move the clock */
  public void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }
}
