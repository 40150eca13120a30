package dev.brace.runtime.generated;

import java.util.Objects;

/**
 * The key values of one call, for its keyed instances: a breaker or rate limiter whose {@code
 * key} template is set is one instance per value ({@code name[value]}). A generated wrapper builds
 * them from the call's arguments, inside the call, so a call that never runs (Brace switched off)
 * never computes them.
 */
public final class CallKeys {
  /** The keys of a call whose instances are not keyed. */
  public static final CallKeys NONE = new CallKeys(null, null);

  private final String breaker;
  private final String limiter;

  private CallKeys(String breaker, String limiter) {
    this.breaker = breaker;
    this.limiter = limiter;
  }

  /**
   * @param breaker the breaker's key, or null when it is not keyed
   * @param limiter the rate limiter's key, or null when it is not keyed
   * @return the keys
   */
  public static CallKeys of(String breaker, String limiter) {
    return breaker == null && limiter == null ? NONE : new CallKeys(breaker, limiter);
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
      throw new IllegalArgumentException(
          callName + ": key part {" + path + "} is null; a key template needs a value for every part");
    }
    return value.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CallKeys
        && Objects.equals(breaker, ((CallKeys) other).breaker)
        && Objects.equals(limiter, ((CallKeys) other).limiter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(breaker, limiter);
  }

  @Override
  public String toString() {
    return "CallKeys[breaker=" + breaker + ", limiter=" + limiter + "]";
  }
}
