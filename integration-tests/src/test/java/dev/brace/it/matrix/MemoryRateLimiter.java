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
 *
 * <p>Adaptive when its config says so: the refill rate moves between {@code minPermits} and {@code
 * permits} on the signals the runtime sends, and a block empties the bucket until it ends.
 */
final class MemoryRateLimiter implements RateLimiterInstance {
  private final RateLimitConfig config;
  private final TimeSource time;
  private final RateLimitSteps steps;
  private double tokensPerNano;
  private final int capacity;

  private double tokens;
  private long refilledAt;
  private double rate;

  MemoryRateLimiter(RateLimitConfig config, TimeSource time, EventSink events) {
    this.config = config;
    this.time = time;
    this.steps = new RateLimitSteps(config.name(), time, events);
    this.tokensPerNano = (double) config.permits() / config.per().toNanos();
    this.capacity = config.burst() > 0 ? config.burst() : config.permits();
    this.tokens = capacity;
    this.refilledAt = time.nanoTime();
    this.rate = config.permits();
  }

  @Override
  public synchronized double currentRate() {
    return rate;
  }

  @Override
  public synchronized void throttled(long blockNanos) {
    if (!config.adaptive()) {
      return;
    }
    long now = refill();
    double from = rate;
    setRate(Math.max(config.minPermits(), rate * config.decrease()));
    if (blockNanos > 0) {
      // The next token arrives when the block ends.
      tokens = Math.min(tokens, 1 - blockNanos * tokensPerNano);
      refilledAt = now;
    }
    steps.rateChanged(from, rate);
  }

  @Override
  public synchronized void succeeded() {
    if (config.adaptive() && rate < config.permits()) {
      refill();
      double from = rate;
      setRate(Math.min(config.permits(), rate + config.increase()));
      steps.rateChanged(from, rate);
    }
  }

  private void setRate(double permits) {
    rate = permits;
    tokensPerNano = permits / config.per().toNanos();
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
