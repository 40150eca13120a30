package dev.brace.runtime.internal;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;

/** The breaker of a call: one shared instance, or one per key when the call's breaker is keyed. */
final class CircuitBreakers {
  private final DefaultCircuitBreaker single;
  private final KeyedInstances<DefaultCircuitBreaker> keyed;

  private CircuitBreakers(DefaultCircuitBreaker single, KeyedInstances<DefaultCircuitBreaker> keyed) {
    this.single = single;
    this.keyed = keyed;
  }

  static CircuitBreakers single(DefaultCircuitBreaker breaker) {
    return new CircuitBreakers(breaker, null);
  }

  static CircuitBreakers keyed(CircuitBreakerConfig config, TimeSource time, EventBus events) {
    return new CircuitBreakers(
        null,
        new KeyedInstances<>(
            config.name(),
            config.maxKeys(),
            keyedName -> new DefaultCircuitBreaker(config.toBuilder(keyedName).build(), time, events)));
  }

  DefaultCircuitBreaker forKey(String key) {
    return single != null ? single : keyed.get(key);
  }

  boolean isKeyed() {
    return keyed != null;
  }

  KeyedInstances<DefaultCircuitBreaker> keyedInstances() {
    return keyed;
  }
}
