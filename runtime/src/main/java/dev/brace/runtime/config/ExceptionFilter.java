package dev.brace.runtime.config;

import dev.brace.runtime.Refusal;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The {@code on}/{@code ignore} rule every pattern uses. A failure matches when it or one of its
 * causes is an instance of a type in {@code on}, and neither it nor any cause is an instance of a
 * type in {@code ignore}: client frameworks wrap the failure a user names (Spring's {@code
 * ResourceAccessException} and Feign's {@code RetryableException} carry the {@code IOException}
 * as their cause), so {@code on = IOException.class} must see through them, as Spring's own
 * {@code @Retryable} does.
 *
 * <p>The walk starts below the async wrappers ({@link CompletionException}, {@link
 * ExecutionException}), looks at most {@value #MAX_CAUSE_DEPTH} causes deep and stops at a cause
 * seen before (a chain that loops). A Brace refusal ({@link Refusal}) is judged as itself only: as
 * the failure, by its own class and never through its cause (an interrupt while it waited); as the
 * cause of another exception, not at all, since it is another call's refusal and says nothing of
 * what the outer call did. The walk runs only when a call failed.
 */
public final class ExceptionFilter {
  /** How many causes below a failure the filter looks at; deeper ones are left alone. */
  public static final int MAX_CAUSE_DEPTH = 16;

  private final Class<?>[] on;
  private final Class<?>[] ignore;

  /**
   * @param on the types that match, themselves or as a cause
   * @param ignore the types that, themselves or as a cause, keep a failure from matching
   */
  public ExceptionFilter(List<Class<? extends Throwable>> on, List<Class<? extends Throwable>> ignore) {
    this.on = on.toArray(new Class<?>[0]);
    this.ignore = ignore.toArray(new Class<?>[0]);
  }

  /**
   * @param failure any throwable, possibly an async wrapper
   * @return whether the failure matches: it or a cause is in {@code on}, and none is in {@code ignore}
   */
  public boolean matches(Throwable failure) {
    return matched(failure) != null;
  }

  /**
   * @param failure any throwable, possibly an async wrapper
   * @return the exception of the chain that matched {@code on}: the failure below its async
   *     wrappers, or the first of its causes that is of a listed type; null when the failure does
   *     not match
   */
  public Throwable matched(Throwable failure) {
    Throwable thrown = unwrap(failure);
    if (thrown instanceof Refusal) {
      return isAny(ignore, thrown) || !isAny(on, thrown) ? null : thrown;
    }
    Throwable found = null;
    Throwable current = thrown;
    for (int depth = 0; ; depth++) {
      if (isAny(ignore, current)) {
        return null;
      }
      if (found == null && isAny(on, current)) {
        found = current;
        if (ignore.length == 0) {
          return found;
        }
      }
      Throwable cause = current.getCause();
      if (depth == MAX_CAUSE_DEPTH || cause == null || cause instanceof Refusal || seen(thrown, depth, cause)) {
        return found;
      }
      current = cause;
    }
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
    Throwable thrown = unwrap(failure);
    if (thrown instanceof Error) {
      return false;
    }
    if (thrown instanceof Refusal && !namesExactly(thrown.getClass())) {
      return false;
    }
    return matched(thrown) != null;
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

  private static boolean isAny(Class<?>[] types, Throwable failure) {
    for (Class<?> type : types) {
      if (type.isInstance(failure)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code cause} is one of the first {@code depth + 1} exceptions of the chain from
   * {@code thrown}: the chain loops. Quadratic in a depth of at most 16, without allocating.
   */
  private static boolean seen(Throwable thrown, int depth, Throwable cause) {
    Throwable earlier = thrown;
    for (int i = 0; i <= depth; i++) {
      if (earlier == cause) {
        return true;
      }
      earlier = earlier.getCause();
    }
    return false;
  }
}
