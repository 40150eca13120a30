package dev.brace.runtime.internal.store;

import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.function.Function;

/** The limiter of a call: one shared bucket, or one per key when the call's limiter is keyed. */
public final class RateLimiters {
  private final RateLimiterInstance single;
  private final KeyedInstances<RateLimiterInstance> keyed;

  private RateLimiters(RateLimiterInstance single, KeyedInstances<RateLimiterInstance> keyed) {
    this.single = single;
    this.keyed = keyed;
  }

  /**
   * @param config the limiter's settings, with or without a key template
   * @param create makes one bucket (a keyed member's from a copy of the config under its name)
   * @return the bucket, or the keyed family
   */
  static RateLimiters of(RateLimitConfig config, Function<RateLimitConfig, RateLimiterInstance> create) {
    if (config.key().isEmpty()) {
      return new RateLimiters(create.apply(config), null);
    }
    return new RateLimiters(
        null,
        new KeyedInstances<>(
            config.name(), config.maxKeys(), keyedName -> create.apply(config.toBuilder(keyedName).build())));
  }

  public RateLimiterInstance forKey(String key) {
    return single != null ? single : keyed.get(key);
  }

  /** @return the limiter's name; a keyed family's name without a key */
  public String name() {
    return single != null ? single.name() : keyed.name();
  }

  public boolean isKeyed() {
    return keyed != null;
  }

  public KeyedInstances<RateLimiterInstance> keyedInstances() {
    return keyed;
  }
}
