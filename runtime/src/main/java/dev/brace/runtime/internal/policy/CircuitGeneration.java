package dev.brace.runtime.internal.policy;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One stretch of a {@link DefaultCircuitBreaker}'s life in one state, and the ticket of the calls
 * it admitted. Immutable apart from the counters of a CLOSED stretch, and compared by identity:
 * every transition installs a new instance, so a ticket tells whether its stretch is still current.
 */
abstract class CircuitGeneration implements CircuitBreakerInstance.Ticket {
  /** The breaker whose state this is; lets a keyed family route a ticket back. */
  final DefaultCircuitBreaker owner;

  CircuitGeneration(DefaultCircuitBreaker owner) {
    this.owner = owner;
  }

  @Override
  public CircuitBreakerInstance owner() {
    return owner;
  }

  /** @return the state this stretch is in */
  abstract CircuitState kind();

  /** CLOSED, with the outcome counters of this stretch: a new stretch starts them from zero. */
  static final class Closed extends CircuitGeneration {
    /** Classic mode's count; unused in rate mode. */
    final AtomicInteger consecutiveFailures = new AtomicInteger();
    /** The rate window in rate mode; null in classic mode. */
    final RateWindow window;
    /** With {@code slowCall} set, a window of the same shape counting slow outcomes; null otherwise. */
    final RateWindow slowWindow;

    Closed(DefaultCircuitBreaker owner, RateWindow window, RateWindow slowWindow) {
      super(owner);
      this.window = window;
      this.slowWindow = slowWindow;
    }

    @Override
    CircuitState kind() {
      return CircuitState.CLOSED;
    }
  }

  /**
   * OPEN until {@code probeAt}, a {@link TimeSource#nanoTime()} value; or, {@code held} by hand,
   * until the breaker is reset.
   */
  static final class Open extends CircuitGeneration {
    final long probeAt;
    final boolean held;

    Open(DefaultCircuitBreaker owner, long probeAt) {
      this(owner, probeAt, false);
    }

    Open(DefaultCircuitBreaker owner, long probeAt, boolean held) {
      super(owner);
      this.probeAt = probeAt;
      this.held = held;
    }

    /** Compared by difference, as {@link System#nanoTime()} values must be. */
    boolean cooledDown(long now) {
      return !held && now - probeAt >= 0;
    }

    Duration remaining(long now) {
      return Duration.ofNanos(Math.max(0, probeAt - now));
    }

    @Override
    CircuitState kind() {
      return CircuitState.OPEN;
    }
  }

  /**
   * HALF_OPEN after {@code successes} consecutive probe successes; {@code probing} while a probe
   * is in flight. Every admitted probe gets a new instance, so its ticket is unique.
   */
  static final class HalfOpen extends CircuitGeneration {
    final int successes;
    final boolean probing;

    HalfOpen(DefaultCircuitBreaker owner, int successes, boolean probing) {
      super(owner);
      this.successes = successes;
      this.probing = probing;
    }

    @Override
    CircuitState kind() {
      return CircuitState.HALF_OPEN;
    }
  }
}
