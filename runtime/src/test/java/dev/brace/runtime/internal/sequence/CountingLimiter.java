package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A limiter for the race tests and models: the real token bucket, counted: how many tokens were reserved ahead of time (to be waited for),
 * and how many of those were used (the wait was reported when the token arrived) or given back.
 * Each reservation ahead must end exactly one of those two ways.
 */
final class CountingLimiter implements RateLimiterInstance {
  private final RateLimiterInstance bucket;
  final AtomicInteger reservedAhead = new AtomicInteger();
  final AtomicInteger used = new AtomicInteger();
  final AtomicInteger givenBack = new AtomicInteger();

  CountingLimiter(RateLimiterInstance bucket) {
    this.bucket = bucket;
  }

  @Override
  public long reserveTokenAt(long now) {
    long reservation = bucket.reserveTokenAt(now);
    if (reservation - now > 0) {
      reservedAhead.incrementAndGet();
    }
    return reservation;
  }

  @Override
  public long reserveToken() {
    throw new AssertionError("the pipeline reserves at the instant it read");
  }

  @Override
  public void acquire() {
    throw new AssertionError("an asynchronous attempt never blocks for a token");
  }

  @Override
  public long waitFor(long reservation) {
    return bucket.waitFor(reservation);
  }

  @Override
  public void cancelReservation(long reservation) {
    givenBack.incrementAndGet();
    bucket.cancelReservation(reservation);
  }

  @Override
  public void waited(long waitedNanos) {
    used.incrementAndGet();
    bucket.waited(waitedNanos);
  }

  /** @return reservations ahead that were neither used nor given back (negative: one ended twice) */
  int unsettled() {
    return reservedAhead.get() - used.get() - givenBack.get();
  }

  @Override
  public String name() {
    return bucket.name();
  }

  @Override
  public long availablePermits() {
    return bucket.availablePermits();
  }

  @Override
  public double currentRate() {
    return bucket.currentRate();
  }
}
