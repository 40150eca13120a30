package dev.brace.runtime.internal;

import dev.brace.runtime.config.RateLimitConfig;
import java.time.Duration;

/** Configs for the limiter tests, named "rl". (Not {@code RateLimiters}: that name is the runtime's own class, which a test class of the same name would hide.) */
final class LimiterConfigs {
  private LimiterConfigs() {}

  static RateLimitConfig config(int permits, Duration per, int burst, Duration maxWait) {
    return RateLimitConfig.builder("rl")
        .permits(permits)
        .per(per)
        .burst(burst)
        .maxWait(maxWait)
        .build();
  }
}
