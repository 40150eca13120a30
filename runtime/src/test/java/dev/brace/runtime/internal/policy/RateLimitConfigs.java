package dev.brace.runtime.internal.policy;

import dev.brace.runtime.config.RateLimitConfig;
import java.time.Duration;

/** Configs for the limiter tests, named "rl". */
final class RateLimitConfigs {
  private RateLimitConfigs() {}

  static RateLimitConfig config(int permits, Duration per, int burst, Duration maxWait) {
    return RateLimitConfig.builder("rl")
        .permits(permits)
        .per(per)
        .burst(burst)
        .maxWait(maxWait)
        .build();
  }
}
