package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.TimeSource;

/**
 * A breaker's ticket (null without a breaker) with the moment its attempt started: for a breaker
 * that judges latency ({@link #judged}), and for metrics listeners that time attempts. With an
 * adaptive bulkhead it holds the bulkhead's slot, which holds the breaker's ticket. Only {@link
 * CallSequence} makes and opens one: the breaker itself receives its own ticket and the judged
 * outcome, so this is deliberately not a breaker's ticket type.
 */
final class TimedTicket {
  final Object ticket;
  private final long started;
  /** Whether the breaker judges the attempt's latency ({@code slowCall}), not only metrics. */
  final boolean judged;

  TimedTicket(Object ticket, long started, boolean judged) {
    this.ticket = ticket;
    this.started = started;
    this.judged = judged;
  }

  /** @return when the attempt started, on the registry's clock */
  long started() {
    return started;
  }

  /** @return the nanoseconds since the attempt started, on the registry's clock */
  long elapsed(TimeSource time) {
    return time.nanoTime() - started;
  }
}
