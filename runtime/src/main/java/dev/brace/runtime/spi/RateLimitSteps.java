package dev.brace.runtime.spi;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.time.Duration;
import java.util.Objects;

/**
 * What every rate limiter does the same way once its bucket has answered: a synchronous caller
 * sleeps until its reserved token arrives (giving it back if interrupted), and waits and refusals
 * are reported with the same events and exceptions (and to a bound metrics listener, without an
 * event).
 */
public final class RateLimitSteps {
  private static final EventKind REJECTED = EventKind.RATELIMIT_REJECTED;
  private static final EventKind WAITED = EventKind.RATELIMIT_WAITED;
  private static final EventKind RATE_CHANGED = EventKind.RATELIMIT_RATE_CHANGED;
  private static final long REPORT_INTERVAL_NANOS = 100_000_000L;

  private final String name;
  private final TimeSource time;
  private final EventSink events;
  private final BoundMetrics<InstanceMetrics> metrics;
  /** When {@code ratelimit.rate_changed} was last reported, and the rate it reported; NaN before the first. */
  private final java.util.concurrent.atomic.AtomicLong reportedAt = new java.util.concurrent.atomic.AtomicLong();
  private volatile double reportedRate = Double.NaN;

  /**
   * @param name the limiter's name
   * @param time the clock slept on
   * @param events where waits and refusals are reported
   */
  public RateLimitSteps(String name, TimeSource time, EventSink events) {
    this.name = Objects.requireNonNull(name, "name");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.RATELIMIT, name);
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
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.waited(waitedNanos);
    }
    if (events.enabled(WAITED)) {
      events.emit(WAITED, name, "waited_ms", waitedNanos / 1_000_000, "waited_ns", waitedNanos);
    }
  }

  /**
   * Reports that an adaptive limiter's rate moved ({@code ratelimit.rate_changed}), at most once per
   * 100 ms on the limiter's clock; {@code from} is the rate the previous event reported, so the
   * events chain, and a move within 100 ms of the previous event is reported with the next one.
   *
   * @param from the rate before this move, in permits per period
   * @param to the rate after it
   */
  public void rateChanged(double from, double to) {
    if (from == to || !events.enabled(RATE_CHANGED)) {
      return;
    }
    long now = time.nanoTime();
    long last = reportedAt.get();
    boolean first = Double.isNaN(reportedRate);
    if (!first && now - last < REPORT_INTERVAL_NANOS || !reportedAt.compareAndSet(last, now)) {
      return;
    }
    double previous = first ? from : reportedRate;
    reportedRate = to;
    events.emit(RATE_CHANGED, name, "from", rounded(previous), "to", rounded(to));
  }

  private static double rounded(double rate) {
    return Math.round(rate * 1000) / 1000.0;
  }

  /**
   * Reports a refusal and returns the exception to throw.
   *
   * @param waitNanos how long until a token would be available
   * @return the refusal, with that as its retry-after
   */
  public RateLimitedException rejected(long waitNanos) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.rejected();
    }
    if (events.enabled(REJECTED)) {
      // Rounded up: a caller coming back after that many milliseconds finds the token there.
      long retryAfterMillis = waitNanos / 1_000_000 + (waitNanos % 1_000_000 == 0 ? 0 : 1);
      events.emit(REJECTED, name, "retry_after_ms", retryAfterMillis);
    }
    return new RateLimitedException(name, Duration.ofNanos(waitNanos), null);
  }
}
