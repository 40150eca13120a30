package dev.brace.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A manual clock that counts how often it is read: a clock read is most of what a local limiter
 * or a timed attempt costs, so tests hold the hot paths to how often they read it.
 */
public final class CountingClock implements TimeSource {
  private final ManualTimeSource clock;
  private final AtomicLong reads = new AtomicLong();

  /** A fresh manual clock underneath. */
  public CountingClock() {
    this(new ManualTimeSource());
  }

  /** @param clock the manual clock whose readings are counted */
  public CountingClock(ManualTimeSource clock) {
    this.clock = clock;
  }

  /** @return the manual clock underneath, to move time and to schedule on */
  public ManualTimeSource clock() {
    return clock;
  }

  /** @return how often the clock was read so far */
  public long reads() {
    return reads.get();
  }

  @Override
  public long nanoTime() {
    reads.incrementAndGet();
    return clock.nanoTime();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    clock.sleep(duration);
  }
}
