package dev.brace.runtime.internal.attempt;

import dev.brace.Criticality;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The waits of an attempt's admission through the {@link AttemptPipeline}, which asks them in
 * admission's order: a limiter's token reserved for later (the attempt waits for it, or gives it
 * back when it would come after the caller's deadline), and a full bulkhead's permit (looked at
 * again in short steps by a driver that must not block, or waited for on the caller's thread) for
 * no longer than its {@code maxWait} and the caller's deadline allow. What the attempt holds and how
 * long it waited are written into its attempt's state. Immutable; a call's pipeline has one.
 */
final class AdmissionWaits {
  /** The longest step between two looks at a full bulkhead by a caller that must not block. */
  private static final long PERMIT_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private static final long SHORTEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final TimeSource time;
  private final KeyedFamily<RateLimiterInstance> limiters;
  private final SemaphoreBulkhead bulkhead;
  private final Criticality.Level criticality;
  private final AttemptBounds bounds;

  AdmissionWaits(TimeSource time, KeyedFamily<RateLimiterInstance> limiters, SemaphoreBulkhead bulkhead,
      Criticality.Level criticality, AttemptBounds bounds) {
    this.time = time;
    this.limiters = limiters;
    this.bulkhead = bulkhead;
    this.criticality = criticality;
    this.bounds = bounds;
  }

  /** @return false when the token is reserved for later: the attempt waits for it */
  boolean reserveToken(AttemptState state) {
    RateLimiterInstance limiter = limiters.forKey(state.keys.limiter());
    if (state.limiter != limiter) {
      state.limiter = limiter;
    }
    // One clock read decides the reservation and whether the token is there now, and times the
    // attempt if nothing else waits.
    long now = time.nanoTime();
    long reservation = limiter.reserveTokenAt(now);
    state.admittedAt = now;
    if (reservation - now <= 0) {
      return true;
    }
    bounds.checkToken(state, limiter, reservation, now);
    state.reserved = true;
    state.reservation = reservation;
    state.askedAt = now;
    state.waitNanos = reservation - now;
    state.waited = true;
    state.stage = AttemptState.TOKEN;
    return false;
  }

  /** @return false when the reserved token is still to come (a scheduler may run a task early) */
  boolean tokenArrived(AttemptState state) {
    long remaining = state.limiter.waitFor(state.reservation);
    if (remaining > 0) {
      state.waitNanos = remaining;
      return false;
    }
    state.reserved = false;
    state.limiter.waited(time.nanoTime() - state.askedAt);
    return true;
  }

  /** @return false when the bulkhead is full and its {@code maxWait} allows another look later */
  boolean takePermit(AttemptState state) {
    boolean polling = state.stage == AttemptState.PERMIT;
    if (polling) {
      state.permitWaitedNanos += state.waitNanos;
    }
    if (bulkhead.takeNow(criticality)) {
      state.holdsPermit = true;
      if (polling && state.permitWaitedNanos > 0) {
        bulkhead.waited(state.permitWaitedNanos);
      }
      return true;
    }
    long maxWaitNanos = bulkhead.maxWaitNanos();
    long remaining = maxWaitNanos - state.permitWaitedNanos;
    if (remaining <= 0) {
      throw bulkhead.full(criticality);
    }
    long left = bounds.waitLeft(state);
    state.stage = AttemptState.PERMIT;
    state.waited = true;
    state.waitNanos = Math.min(Math.min(remaining, left),
        Math.max(SHORTEST_POLL_NANOS, Math.min(PERMIT_POLL_NANOS, maxWaitNanos / 10)));
    return false;
  }

  /** @return true when the wait took a permit of a full bulkhead: the attempt is then admitted */
  boolean awaitOnThisThread(AttemptState state) {
    if (state.stage == AttemptState.TOKEN) {
      try {
        time.sleep(Duration.ofNanos(state.waitNanos));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        long remaining = Math.max(0, state.reservation - time.nanoTime());
        throw new RateLimitedException(state.limiter.name(), Duration.ofNanos(remaining), interrupted);
      }
      return false;
    }
    // A full bulkhead: wait on it, in arrival order, for the rest of its maxWait.
    long askedAt = time.nanoTime();
    bounds.acquire(state, bulkhead, criticality);
    state.holdsPermit = true;
    long waited = time.nanoTime() - askedAt;
    if (waited > 0) {
      bulkhead.waited(waited);
    }
    return true;
  }
}
