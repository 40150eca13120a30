package dev.brace.runtime.internal;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.RateLimitConfig;

/** The limiter of a call: one shared bucket, or one per key when the call's limiter is keyed. */
final class RateLimiters {
  private final TokenBucketRateLimiter single;
  private final KeyedInstances<TokenBucketRateLimiter> keyed;

  private RateLimiters(TokenBucketRateLimiter single, KeyedInstances<TokenBucketRateLimiter> keyed) {
    this.single = single;
    this.keyed = keyed;
  }

  static RateLimiters single(TokenBucketRateLimiter limiter) {
    return new RateLimiters(limiter, null);
  }

  static RateLimiters keyed(RateLimitConfig config, TimeSource time, EventBus events) {
    return new RateLimiters(
        null,
        new KeyedInstances<>(
            config.name(),
            config.maxKeys(),
            keyedName ->
                new TokenBucketRateLimiter(
                    config.toBuilder(keyedName).build(),
                    time,
                    events)));
  }

  TokenBucketRateLimiter forKey(String key) {
    return single != null ? single : keyed.get(key);
  }

  boolean isKeyed() {
    return keyed != null;
  }

  KeyedInstances<TokenBucketRateLimiter> keyedInstances() {
    return keyed;
  }
}
