package dev.brace.runtime;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** {@link System#nanoTime()} and a real sleep. */
final class SystemTimeSource implements TimeSource {
  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  private SystemTimeSource() {}

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    long nanos = duration.toNanos();
    if (nanos > 0) {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } else if (Thread.interrupted()) {
      throw new InterruptedException();
    }
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }
}
