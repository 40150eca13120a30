package dev.brace.runtime.internal.store;

import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import java.util.function.Function;

/** The breaker of a call: one shared instance, or one per key when the call's breaker is keyed. */
public final class CircuitBreakers {
  private final CircuitBreakerInstance single;
  private final KeyedInstances<CircuitBreakerInstance> keyed;

  private CircuitBreakers(CircuitBreakerInstance single, KeyedInstances<CircuitBreakerInstance> keyed) {
    this.single = single;
    this.keyed = keyed;
  }

  /**
   * @param config the breaker's settings, with or without a key template
   * @param create makes one breaker (a keyed member's from a copy of the config under its name)
   * @return the breaker, or the keyed family
   */
  static CircuitBreakers of(CircuitBreakerConfig config, Function<CircuitBreakerConfig, CircuitBreakerInstance> create) {
    if (config.key().isEmpty()) {
      return new CircuitBreakers(create.apply(config), null);
    }
    return new CircuitBreakers(
        null,
        new KeyedInstances<>(
            config.name(), config.maxKeys(), keyedName -> create.apply(config.toBuilder(keyedName).build())));
  }

  public CircuitBreakerInstance forKey(String key) {
    return single != null ? single : keyed.get(key);
  }

  public boolean isKeyed() {
    return keyed != null;
  }

  public KeyedInstances<CircuitBreakerInstance> keyedInstances() {
    return keyed;
  }
}
