package dev.brace.runtime.config;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.RateLimitedException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;

/**
 * What may be repeated for a call marked {@code @NotIdempotent}: only a failure that proves the
 * request never reached the dependency may be retried (Finagle's "requeue"), and the call is never
 * hedged. The processor checks the annotations against this list at compile time, the registry
 * checks the effective settings when a wrapper or stack is created, so configuration cannot widen
 * what the source allowed.
 *
 * <p>At run time nothing more is checked: the retry's {@code on} holds only these types, and its
 * {@link ExceptionFilter} reads causes as every filter does, so a client framework's wrapper of a
 * connection never made (Spring's {@code ResourceAccessException} caused by a {@link
 * ConnectException}) is retried, while a wrapper of anything else is not. A refusal proves the
 * request was never sent only as the failure itself: as the cause of another exception it is
 * another call's refusal, inside a delegate that may have acted, and the filter does not match it.
 */
public final class Idempotence {
  /**
   * The failures that prove a request was never sent, with their subtypes: Brace's own refusals,
   * which stop a call before the dependency, and a connection that was never made.
   */
  public static final List<Class<? extends Throwable>> NEVER_SENT = List.of(
      CircuitOpenException.class,
      RateLimitedException.class,
      BulkheadFullException.class,
      ConnectException.class,
      UnknownHostException.class,
      NoRouteToHostException.class);

  private Idempotence() {}

  /**
   * @param failure an exception type a retry's {@code on} names
   * @return whether every failure of that type proves the request was never sent
   * @throws NullPointerException when {@code failure} is null
   */
  public static boolean provesNeverSent(Class<? extends Throwable> failure) {
    Objects.requireNonNull(failure, "failure");
    return NEVER_SENT.stream().anyMatch(type -> type.isAssignableFrom(failure));
  }

  /**
   * @param kind a pattern
   * @return whether it sends a call again while an earlier copy may still be at the dependency
   *     (hedging), which a call that is not idempotent never allows, whatever its settings
   */
  public static boolean sendsCopies(Kind kind) {
    return kind == Kind.HEDGE;
  }

  /** @return the never-sent types by name, for messages: {@code CircuitOpenException, …, java.net.NoRouteToHostException} */
  public static String describeNeverSent() {
    StringBuilder text = new StringBuilder();
    for (Class<? extends Throwable> type : NEVER_SENT) {
      text.append(text.length() == 0 ? "" : ", ").append(type.getName());
    }
    return text.toString();
  }
}
