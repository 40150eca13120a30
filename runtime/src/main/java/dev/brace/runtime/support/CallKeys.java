package dev.brace.runtime.support;

import dev.brace.runtime.internal.Message;
import java.util.Objects;

/**
 * The key values of one call, for its keyed instances: a breaker or rate limiter whose {@code
 * key} template is set is one instance per value ({@code name[value]}), and {@code @StaleIfError}
 * remembers one result per stale key. A generated wrapper builds them from the call's arguments,
 * inside the call, so a call that never runs (Brace switched off) never computes them.
 */
public final class CallKeys {
  /** The keys of a call whose instances are not keyed. */
  public static final CallKeys NONE = new CallKeys(null, null, null);

  private final String breaker;
  private final String limiter;
  private final Object stale;

  private CallKeys(String breaker, String limiter, Object stale) {
    this.breaker = breaker;
    this.limiter = limiter;
    this.stale = stale;
  }

  /**
   * @param breaker the breaker's key, or null when it is not keyed
   * @param limiter the rate limiter's key, or null when it is not keyed
   * @return the keys
   */
  public static CallKeys of(String breaker, String limiter) {
    return breaker == null && limiter == null ? NONE : new CallKeys(breaker, limiter, null);
  }

  /**
   * @param breaker the breaker's key, or null when it is not keyed
   * @param limiter the rate limiter's key, or null when it is not keyed
   * @param stale the key {@code @StaleIfError} remembers results under: a template's text, or
   *     {@link #arguments} when the template is empty; null when the call has none
   * @return the keys
   */
  public static CallKeys of(String breaker, String limiter, Object stale) {
    return stale == null ? of(breaker, limiter) : new CallKeys(breaker, limiter, stale);
  }

  /**
   * The stale key of a call whose {@code @StaleIfError} has no template: every argument, compared
   * by {@code equals} (arrays by their elements), nulls included.
   *
   * @param arguments the call's arguments, in order, in an array of their own (kept as given)
   * @return a key equal to another exactly when their arguments are
   */
  public static Object arguments(Object... arguments) {
    return new Arguments(arguments);
  }

  /** @return the stale key, or null */
  public Object stale() {
    return stale;
  }

  /** @return the breaker's key, or null */
  public String breaker() {
    return breaker;
  }

  /** @return the rate limiter's key, or null */
  public String limiter() {
    return limiter;
  }

  /**
   * One value named by a key template.
   *
   * @param value the value of {@code {path}} in the template
   * @param path the template's name for it ({@code userId}, {@code request.host})
   * @param callName the call, for the message
   * @return the value as text
   * @throws IllegalArgumentException when the value is null, naming the parameter
   */
  public static String part(Object value, String path, String callName) {
    if (value == null) {
      throw new IllegalArgumentException(Message.KEY_PART_NULL.format(callName, path));
    }
    return value.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CallKeys
        && Objects.equals(breaker, ((CallKeys) other).breaker)
        && Objects.equals(limiter, ((CallKeys) other).limiter)
        && Objects.equals(stale, ((CallKeys) other).stale);
  }

  @Override
  public int hashCode() {
    return Objects.hash(breaker, limiter, stale);
  }

  @Override
  public String toString() {
    return "CallKeys[breaker=" + breaker + ", limiter=" + limiter + (stale == null ? "" : ", stale=" + stale) + "]";
  }

  /** A call's arguments as one key. */
  private static final class Arguments {
    private final Object[] values;
    private final int hash;

    Arguments(Object[] values) {
      this.values = values;
      this.hash = java.util.Arrays.deepHashCode(values);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Arguments && java.util.Arrays.deepEquals(values, ((Arguments) other).values);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return java.util.Arrays.deepToString(values);
    }
  }
}
