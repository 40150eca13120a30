package dev.brace.runtime.internal.policy;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.config.FallbackConfig;
import java.util.Objects;

/**
 * Decides whether a call's fallback answers a failure, and with which exception: the failure
 * matches {@code on}/{@code ignore} (itself or through its causes) and is not an {@link Error}.
 * The fallback method receives the exception thrown (looked through async wrappers) when its
 * parameter takes it; when the parameter takes only the cause that matched (a {@code
 * ResourceAccessException} caused by the {@code IOException} of {@code on = IOException.class}),
 * that cause. The registry keeps {@code on} within what the parameter takes, so the matched
 * exception always fits.
 */
public final class FallbackPolicy {
  private final FallbackConfig config;
  private final String callName;
  private final ExceptionFilter filter;
  /** The type the fallback method's failure parameter takes, or null when any failure fits. */
  private final Class<? extends Throwable> takes;
  private final EventBus events;

  /**
   * @param config the settings
   * @param takes the type the fallback method's failure parameter takes, or null when it takes any
   *     failure (or none); every type of {@code config.on()} is one it takes
   * @param callName the call, for events
   * @param events the event boundary
   */
  public FallbackPolicy(FallbackConfig config, Class<? extends Throwable> takes, String callName, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.takes = takes;
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
   * @return the exception the fallback receives (the failure below its async wrappers, or the
   *     cause that matched when only that fits the fallback's parameter), or null when it does not
   *     answer this failure
   */
  public Throwable answerable(Throwable failure) {
    Throwable thrown = ExceptionFilter.unwrap(failure);
    if (thrown instanceof Error) {
      return null;
    }
    Throwable matched = filter.matched(thrown);
    if (matched == null) {
      return null;
    }
    return takes == null || takes.isInstance(thrown) ? thrown : matched;
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
