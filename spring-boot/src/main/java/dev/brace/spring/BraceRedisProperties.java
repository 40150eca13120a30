package dev.brace.spring;

import dev.brace.redis.RedisBackendOptions;
import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code brace.redis.*}: the Redis backend the starter makes from the application's own Spring Data
 * Redis connection. Defaults are {@link RedisBackendOptions#defaults()}'s. Bound relaxed, as
 * Spring binds its own ({@code BRACE_REDIS_COMMAND_TIMEOUT} in the environment works too).
 */
@ConfigurationProperties("brace.redis")
public class BraceRedisProperties {
  private static final RedisBackendOptions DEFAULTS = RedisBackendOptions.defaults();

  private boolean enabled = true;
  private String backendName = "redis";
  private Duration commandTimeout = DEFAULTS.commandTimeout();
  private WhenUnavailable whenUnavailable = DEFAULTS.whenUnavailable();
  private Duration recheckInterval = DEFAULTS.recheckInterval();
  private Duration probeLease = DEFAULTS.probeLease();
  private String keyPrefix = DEFAULTS.keyPrefix();

  /** Created by Spring. */
  public BraceRedisProperties() {}

  /**
   * The backend's options, checked: a value out of range is named by its key.
   *
   * @return the options
   * @throws IllegalStateException ({@code [brace:redis-property]}) naming the key and the value when one
   *     is out of range
   */
  RedisBackendOptions options() {
    positive("brace.redis.command-timeout", commandTimeout);
    positive("brace.redis.recheck-interval", recheckInterval);
    positive("brace.redis.probe-lease", probeLease);
    if (whenUnavailable == null) {
      throw refused("brace.redis.when-unavailable", null, "local or refuse");
    }
    if (keyPrefix == null) {
      throw refused("brace.redis.key-prefix", null, "any text, empty for none");
    }
    return new RedisBackendOptions(commandTimeout, whenUnavailable, recheckInterval, probeLease, keyPrefix);
  }

  /**
   * @return the name instances' {@code backend} setting uses, checked
   * @throws IllegalStateException ({@code [brace:redis-property]}) when it is not a backend name
   */
  String checkedBackendName() {
    if (backendName == null || backendName.equals("local") || !backendName.matches("[A-Za-z0-9_-]+")) {
      throw refused("brace.redis.backend-name", backendName, "letters, digits, - and _, not local");
    }
    return backendName;
  }

  private static void positive(String key, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw refused(key, value, "a positive duration (50ms, 1s)");
    }
  }

  private static IllegalStateException refused(String key, Object value, String accepted) {
    return new IllegalStateException("[brace:redis-property] " + key + " = " + value + " is out of range; accepted: " + accepted);
  }

  /** @return whether the starter makes a Redis backend (default true) */
  public boolean isEnabled() {
    return enabled;
  }

  /** @param enabled whether the starter makes a Redis backend */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** @return the name instances' {@code backend} setting uses (default {@code redis}) */
  public String getBackendName() {
    return backendName;
  }

  /** @param backendName the name instances' {@code backend} setting uses */
  public void setBackendName(String backendName) {
    this.backendName = backendName;
  }

  /** @return the longest one script may take (default 50 ms) */
  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  /** @param commandTimeout the longest one script may take */
  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  /** @return what an instance does while Redis cannot be reached (default {@code local}) */
  public WhenUnavailable getWhenUnavailable() {
    return whenUnavailable;
  }

  /** @param whenUnavailable what an instance does while Redis cannot be reached */
  public void setWhenUnavailable(WhenUnavailable whenUnavailable) {
    this.whenUnavailable = whenUnavailable;
  }

  /** @return how often one call tries Redis again during an outage (default 1 s) */
  public Duration getRecheckInterval() {
    return recheckInterval;
  }

  /** @param recheckInterval how often one call tries Redis again during an outage */
  public void setRecheckInterval(Duration recheckInterval) {
    this.recheckInterval = recheckInterval;
  }

  /** @return how long a HALF_OPEN probe holds the circuit's probe slot (default 30 s) */
  public Duration getProbeLease() {
    return probeLease;
  }

  /** @param probeLease how long a HALF_OPEN probe holds the circuit's probe slot */
  public void setProbeLease(Duration probeLease) {
    this.probeLease = probeLease;
  }

  /** @return what every key starts with (default {@code brace:}) */
  public String getKeyPrefix() {
    return keyPrefix;
  }

  /** @param keyPrefix what every key starts with */
  public void setKeyPrefix(String keyPrefix) {
    this.keyPrefix = keyPrefix;
  }
}
