package dev.brace.runtime.internal;

import dev.brace.runtime.RateLimiterHandle;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;

/** SKELETON: to be implemented (see the helper brief). */
public final class TokenBucketRateLimiter implements RateLimiterHandle {
  private final RateLimitConfig config;

  public TokenBucketRateLimiter(RateLimitConfig config, TimeSource time, EventBus events) {
    this.config = config;
  }

  public RateLimitConfig config() {
    return config;
  }

  public void acquire() {}

  public long reserve() {
    return 0;
  }

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public long availablePermits() {
    return 0;
  }
}
