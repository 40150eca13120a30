package dev.brace.it.matrix;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.RateLimitSteps;
import dev.brace.runtime.spi.RateLimiterInstance;

/**
 * A token bucket under one lock: {@code permits} per {@code per}, capacity {@code burst}, starting
 * full. A caller without a token reserves the next one (the count goes below zero) when it can
 * arrive within {@code maxWait}, and is refused at once otherwise. A cancelled reservation is
 * dropped, which the contract allows. Written to be obviously right rather than fast.
 */
final class MemoryRateLimiter implements RateLimiterInstance {
  private final RateLimitConfig config;
  private final TimeSource time;
  private final RateLimitSteps steps;
  private final double tokensPerNano;
  private final int capacity;

  private double tokens;
  private long refilledAt;

  MemoryRateLimiter(RateLimitConfig config, TimeSource time, EventSink events) {
    this.config = config;
    this.time = time;
    this.steps = new RateLimitSteps(config.name(), time, events);
    this.tokensPerNano = (double) config.permits() / config.per().toNanos();
    this.capacity = config.burst() > 0 ? config.burst() : config.permits();
    this.tokens = capacity;
    this.refilledAt = time.nanoTime();
  }

  @Override
  public void acquire() {
    long askedAt = time.nanoTime();
    long reservation = reserveToken();
    steps.awaitToken(askedAt, waitFor(reservation), () -> cancelReservation(reservation));
  }

  /** @return the instant (on the registry's clock) at which the reserved token may be used */
  @Override
  public synchronized long reserveToken() {
    long now = refill();
    if (tokens >= 1) {
      tokens -= 1;
      return now;
    }
    long waitNanos = (long) Math.ceil((1 - tokens) / tokensPerNano);
    if (waitNanos > config.maxWait().toNanos()) {
      throw steps.rejected(waitNanos);
    }
    tokens -= 1;
    return now + waitNanos;
  }

  @Override
  public long waitFor(long reservation) {
    return Math.max(0, reservation - time.nanoTime());
  }

  @Override
  public void cancelReservation(long reservation) {
    // Dropped: the contract allows it, and it can only make later callers wait a little longer.
  }

  @Override
  public void waited(long waitedNanos) {
    steps.waited(waitedNanos);
  }

  private long refill() {
    long now = time.nanoTime();
    tokens = Math.min(capacity, tokens + (now - refilledAt) * tokensPerNano);
    refilledAt = now;
    return now;
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public synchronized long availablePermits() {
    refill();
    return Math.max(0, (long) Math.floor(tokens));
  }
}
