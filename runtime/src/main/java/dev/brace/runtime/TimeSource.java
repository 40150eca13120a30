package dev.brace.runtime;

import java.time.Duration;

/**
 * Where Brace reads time and sleeps. Every policy goes through one, so tests can use {@link
 * ManualTimeSource} instead of waiting.
 */
public interface TimeSource {

  /**
   * @return monotonic nanoseconds, comparable only with other values of the same source
   */
  long nanoTime();

  /**
   * Sleeps for the duration.
   *
   * @param duration how long; zero or negative returns at once
   * @throws InterruptedException when the thread is interrupted while sleeping (flag cleared, as
   *     {@link Thread#sleep(long)} does)
   */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * @return the system's monotonic clock and {@link Thread#sleep}
   */
  static TimeSource system() {
    return SystemTimeSource.INSTANCE;
  }
}
