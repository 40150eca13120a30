package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import java.time.Duration;

/**
 * A clock that, once, runs other work after a caller read the time and before the caller goes on:
 * a deterministic stand-in for a thread overtaken between reading the clock and acting on it.
 */
final class InterleavingClock implements TimeSource {
  volatile long now;
  private Runnable meanwhile;

  /** @param work run inside the next read of the clock, before it returns what it read */
  void beforeNextReadReturns(Runnable work) {
    meanwhile = work;
  }

  @Override
  public long nanoTime() {
    long read = now;
    Runnable work = meanwhile;
    meanwhile = null;
    if (work != null) {
      work.run();
    }
    return read;
  }

  @Override
  public void sleep(Duration duration) {
    now += duration.toNanos();
  }
}
