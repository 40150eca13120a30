package dev.brace.runtime.internal.policy;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.config.FallbackConfig;
import java.util.Objects;

/**
 * Decides whether a call's fallback answers a failure: it matches {@code on}/{@code ignore} and is
 * not an {@link Error}. What the fallback method receives is the exception that matched, looked
 * through async wrappers, so it is always of a type the method's parameter takes.
 */
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

  /**
   * @param failure what ended the call
   * @return the exception the fallback answers (the failure, or the cause inside its async
   *     wrappers), or null when it does not answer this failure
   */
  public Throwable answerable(Throwable failure) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    return cause instanceof Error || !filter.matches(cause) ? null : cause;
  }

  /**
   * Reports that the fallback answers a failure ({@code fallback.used}).
   *
   * @param cause what {@link #answerable} returned
   */
  public void used(Throwable cause) {
    if (events.enabled(EventKind.FALLBACK_USED)) {
      events.emit(EventKind.FALLBACK_USED, config.name(), "call", callName,
          "exception", cause.getClass().getName(), "message", cause.getMessage());
    }
  }
}
