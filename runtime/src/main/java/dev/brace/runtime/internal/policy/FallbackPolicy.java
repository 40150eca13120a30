package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.config.FallbackConfig;
import java.util.Objects;

/** Decides whether a call's fallback answers a failure: it matches {@code on}/{@code ignore} and is not an {@link Error}. */
public final class FallbackPolicy {
  private final FallbackConfig config;
  private final String callName;
  private final ExceptionFilter filter;
  private final EventBus events;

  public FallbackPolicy(FallbackConfig config, String callName, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.events = Objects.requireNonNull(events, "events");
    this.filter = new ExceptionFilter(config.on(), config.ignore());
  }

  /** @return the settings */
  public FallbackConfig config() {
    return config;
  }

  public boolean answers(Throwable failure) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    if (cause instanceof Error || !filter.matches(cause)) {
      return false;
    }
    if (events.enabled("fallback.used")) {
      events.emit("fallback.used", config.name(), "call", callName,
          "exception", cause.getClass().getName(), "message", cause.getMessage());
    }
    return true;
  }
}
