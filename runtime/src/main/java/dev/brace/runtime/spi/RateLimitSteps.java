package dev.brace.runtime.spi;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.Objects;

/**
 * What every rate limiter does the same way once its bucket has answered: a synchronous caller
 * sleeps until its reserved token arrives (giving it back if interrupted), and waits and refusals
 * are reported with the same events and exceptions.
 */
public final class RateLimitSteps {
  private static final EventKind REJECTED = EventKind.RATELIMIT_REJECTED;
  private static final EventKind WAITED = EventKind.RATELIMIT_WAITED;

  private final String name;
  private final TimeSource time;
  private final EventSink events;

  /**
   * @param name the limiter's name
   * @param time the clock slept on
   * @param events where waits and refusals are reported
   */
  public RateLimitSteps(String name, TimeSource time, EventSink events) {
    this.name = Objects.requireNonNull(name, "name");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * Sleeps until a token reserved for this caller arrives.
   *
   * @param askedAt {@link TimeSource#nanoTime()} when the token was reserved
   * @param waitNanos how long after {@code askedAt} it arrives; nothing happens unless above 0
   * @param giveBack undoes the reservation when the wait is interrupted
   * @throws RateLimitedException when interrupted, with the interrupt as cause, the token given
   *     back and the interrupt flag set again
   */
  public void awaitToken(long askedAt, long waitNanos, Runnable giveBack) {
    if (waitNanos <= 0) {
      return;
    }
    try {
      time.sleep(Duration.ofNanos(waitNanos));
    } catch (InterruptedException interrupted) {
      giveBack.run();
      Thread.currentThread().interrupt();
      long remaining = Math.max(0, askedAt + waitNanos - time.nanoTime());
      throw new RateLimitedException(name, Duration.ofNanos(remaining), interrupted);
    }
    waited(time.nanoTime() - askedAt);
  }

  /**
   * Reports a wait for a token that has now arrived ({@code ratelimit.waited}); the async driver
   * calls it when its scheduled wait ends.
   *
   * @param waitedNanos how long the caller waited
   */
  public void waited(long waitedNanos) {
    if (events.enabled(WAITED)) {
      events.emit(WAITED, name, "waited_ms", waitedNanos / 1_000_000, "waited_ns", waitedNanos);
    }
  }

  /**
   * Reports a refusal and returns the exception to throw.
   *
   * @param waitNanos how long until a token would be available
   * @return the refusal, with that as its retry-after
   */
  public RateLimitedException rejected(long waitNanos) {
    if (events.enabled(REJECTED)) {
      // Rounded up: a caller coming back after that many milliseconds finds the token there.
      long retryAfterMillis = waitNanos / 1_000_000 + (waitNanos % 1_000_000 == 0 ? 0 : 1);
      events.emit(REJECTED, name, "retry_after_ms", retryAfterMillis);
    }
    return new RateLimitedException(name, Duration.ofNanos(waitNanos), null);
  }
}
