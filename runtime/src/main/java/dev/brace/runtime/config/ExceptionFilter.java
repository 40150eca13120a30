package dev.brace.runtime.config;

import dev.brace.runtime.Refusal;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The {@code on}/{@code ignore} rule every pattern uses: a failure matches when it is an instance
 * of a type in {@code on} and of none in {@code ignore}. Async wrappers ({@link
 * CompletionException}, {@link ExecutionException}) are looked through, so filters see the real
 * cause.
 */
public final class ExceptionFilter {
  private final Class<?>[] on;
  private final Class<?>[] ignore;

  /**
   * @param on the types that match
   * @param ignore the types that never match
   */
  public ExceptionFilter(List<Class<? extends Throwable>> on, List<Class<? extends Throwable>> ignore) {
    this.on = on.toArray(new Class<?>[0]);
    this.ignore = ignore.toArray(new Class<?>[0]);
  }

  /**
   * @param failure any throwable
   * @return whether the (unwrapped) failure matches
   */
  public boolean matches(Throwable failure) {
    Throwable cause = unwrap(failure);
    for (Class<?> ignored : ignore) {
      if (ignored.isInstance(cause)) {
        return false;
      }
    }
    for (Class<?> type : on) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The rule of the patterns that answer a failure with another attempt (retry, hedge): the
   * failure matches, is not an {@link Error}, and is not a Brace refusal unless that refusal's exact
   * class is named in {@code on} — a refusal names no fault of the dependency, and another attempt
   * would meet the same refusal.
   *
   * @param failure what an attempt failed with, possibly an async wrapper
   * @return whether another attempt answers it
   */
  public boolean callsForAnotherAttempt(Throwable failure) {
    Throwable cause = unwrap(failure);
    if (cause instanceof Error) {
      return false;
    }
    if (cause instanceof Refusal && !namesExactly(cause.getClass())) {
      return false;
    }
    return matches(cause);
  }

  /**
   * @param type a type
   * @return whether {@code type} itself (not a supertype of it) is listed in {@code on}
   */
  public boolean namesExactly(Class<?> type) {
    for (Class<?> listed : on) {
      if (listed == type) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param failure a throwable, possibly an async wrapper
   * @return the first cause that is not a {@link CompletionException} or {@link ExecutionException}
   */
  public static Throwable unwrap(Throwable failure) {
    Throwable current = failure;
    while ((current instanceof CompletionException || current instanceof ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
