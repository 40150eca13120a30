package dev.brace.runtime.internal;

import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.time.Duration;
import java.util.Optional;

/** SKELETON: to be implemented (see the helper brief). */
public final class DefaultCircuitBreaker implements CircuitBreakerHandle {
  private final CircuitBreakerConfig config;

  public DefaultCircuitBreaker(CircuitBreakerConfig config, TimeSource time, EventBus events) {
    this.config = config;
  }

  public CircuitBreakerConfig config() {
    return config;
  }

  public static DefaultCircuitBreaker ownerOf(Object ticket) {
    throw new IllegalStateException("skeleton");
  }

  public Object acquire() {
    throw new IllegalStateException("skeleton");
  }

  public void onSuccess(Object ticket) {}

  public void onResult(Object ticket, Object result) {}

  public void onFailure(Object ticket, Throwable failure) {}

  public void release(Object ticket) {}

  @Override
  public String name() {
    return config.name();
  }

  @Override
  public CircuitState state() {
    return CircuitState.CLOSED;
  }

  @Override
  public void reset() {}

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.empty();
  }
}
