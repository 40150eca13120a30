package dev.brace.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link RedisBackend} talks to Redis and what it does when it cannot. Immutable; start from
 * {@link #defaults()} and change what differs.
 *
 * @param commandTimeout the longest one script may take before the call goes on without Redis
 *     (default 50 ms)
 * @param whenUnavailable what an instance does while Redis cannot be reached (default {@link
 *     WhenUnavailable#LOCAL})
 * @param recheckInterval while Redis is unavailable, how often one call tries it again; the others
 *     go straight to the fallback (default 1 s)
 * @param probeLease how long a HALF_OPEN probe holds the circuit's single probe slot; a prober that
 *     crashed frees it after this (default 30 s)
 * @param keyPrefix put before every key, e.g. {@code "brace:"} → {@code brace:ratelimit:recs-api}
 */
public record RedisBackendOptions(
    Duration commandTimeout,
    WhenUnavailable whenUnavailable,
    Duration recheckInterval,
    Duration probeLease,
    String keyPrefix) {

  /** What an instance does while Redis cannot be reached. */
  public enum WhenUnavailable {
    /** Decide with state kept in this JVM (each machine then has its own quota and circuit). */
    LOCAL,
    /** Refuse every call with {@code RateLimitedException} or {@code CircuitOpenException}. */
    REFUSE
  }

  /**
   * Checks every component; see the class description for what each means.
   *
   * @param commandTimeout the longest one script may take, positive
   * @param whenUnavailable what an instance does while Redis cannot be reached
   * @param recheckInterval how often one call tries Redis again while it is unavailable, positive
   * @param probeLease how long a HALF_OPEN probe holds the probe slot, positive
   * @param keyPrefix put before every key
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when a duration is not positive
   */
  public RedisBackendOptions {
    positive(commandTimeout, "commandTimeout");
    Objects.requireNonNull(whenUnavailable, "whenUnavailable");
    positive(recheckInterval, "recheckInterval");
    positive(probeLease, "probeLease");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
  }

  /** @return 50 ms timeout, local fallback, recheck every second, 30 s probe lease, prefix {@code brace:} */
  public static RedisBackendOptions defaults() {
    return new RedisBackendOptions(
        Duration.ofMillis(50), WhenUnavailable.LOCAL, Duration.ofSeconds(1), Duration.ofSeconds(30), "brace:");
  }

  /**
   * @param value the command timeout
   * @return a copy with it
   */
  public RedisBackendOptions withCommandTimeout(Duration value) {
    return new RedisBackendOptions(value, whenUnavailable, recheckInterval, probeLease, keyPrefix);
  }

  /**
   * @param value what to do while Redis is unavailable
   * @return a copy with it
   */
  public RedisBackendOptions withWhenUnavailable(WhenUnavailable value) {
    return new RedisBackendOptions(commandTimeout, value, recheckInterval, probeLease, keyPrefix);
  }

  /**
   * @param value how often to try Redis again while it is unavailable
   * @return a copy with it
   */
  public RedisBackendOptions withRecheckInterval(Duration value) {
    return new RedisBackendOptions(commandTimeout, whenUnavailable, value, probeLease, keyPrefix);
  }

  /**
   * @param value how long a probe holds the probe slot
   * @return a copy with it
   */
  public RedisBackendOptions withProbeLease(Duration value) {
    return new RedisBackendOptions(commandTimeout, whenUnavailable, recheckInterval, value, keyPrefix);
  }

  /**
   * @param value the key prefix
   * @return a copy with it
   */
  public RedisBackendOptions withKeyPrefix(String value) {
    return new RedisBackendOptions(commandTimeout, whenUnavailable, recheckInterval, probeLease, value);
  }

  private static void positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
