package dev.brace.runtime.config;

import dev.brace.RateLimit;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/** The settings of one rate limiter: the attributes of {@link RateLimit}, checked. Immutable. */
public final class RateLimitConfig extends InstanceConfig {
  private final int permits;
  private final Duration per;
  private final int burst;
  private final Duration maxWait;
  private final String key;
  private final int maxKeys;
  private final String backend;

  private RateLimitConfig(Builder builder) {
    super(builder);
    if (!builder.explicitValues().containsKey("permits")) {
      throw builder.invalid("permits", null, "an integer ≥ 1 (permits has no default)");
    }
    this.permits = builder.get("permits");
    this.per = builder.get("per");
    int burst = builder.get("burst");
    this.burst = burst == 0 ? permits : burst;
    this.maxWait = builder.get("maxWait");
    this.key = builder.get("key");
    this.maxKeys = builder.get("maxKeys");
    this.backend = builder.get(ConfigBuilder.BACKEND);
  }

  /**
   * @param name the limiter's name
   * @return a builder; {@code permits} must be set
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * @param otherName the name of the copy (a keyed member's {@code name[key]})
   * @return a builder holding exactly the values this config was built from, under another name
   */
  public Builder toBuilder(String otherName) {
    return builder(otherName).putAll(explicitValues());
  }


  /** @return tokens added every {@link #per()} */
  public int permits() {
    return permits;
  }

  /** @return the refill period */
  public Duration per() {
    return per;
  }

  /** @return the bucket's capacity (never 0: an unset burst is {@link #permits()}) */
  public int burst() {
    return burst;
  }

  /** @return the longest a call waits for a token */
  public Duration maxWait() {
    return maxWait;
  }

  /** @return the key template, or empty */
  public String key() {
    return key;
  }

  /** @return the most keys kept */
  public int maxKeys() {
    return maxKeys;
  }

  /** @return the name of the backend that keeps the state; {@code "local"} for this JVM */
  public String backend() {
    return backend;
  }

  /** Builds a {@link RateLimitConfig}; one checked setter per attribute of {@link RateLimit}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("permits", (b, t) -> b.permits(b.integer("permits", t)))
            .add("per", Builder::per)
            .add("burst", (b, t) -> b.burst(b.integer("burst", t)))
            .add("maxWait", Builder::maxWait)
            .add("maxKeys", (b, t) -> b.maxKeys(b.integer("maxKeys", t)))
            .add(BACKEND, Builder::backend)
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.RATELIMIT, name, RateLimit.class);
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder permits(int value) {
      return put("permits", atLeast("permits", value, 1));
    }

    /**
     * @param value a positive duration string
     * @return this
     */
    public Builder per(String value) {
      return put("per", duration("per", value, true));
    }

    /**
     * @param value a positive duration
     * @return this
     */
    public Builder per(Duration value) {
      return put("per", duration("per", value, true));
    }

    /**
     * @param value 0 for {@code permits}, else the capacity
     * @return this
     */
    public Builder burst(int value) {
      return put("burst", atLeast("burst", value, 0));
    }

    /**
     * @param value a duration string; "0ms" refuses at once
     * @return this
     */
    public Builder maxWait(String value) {
      return put("maxWait", duration("maxWait", value, false));
    }

    /**
     * @param value zero refuses at once
     * @return this
     */
    public Builder maxWait(Duration value) {
      return put("maxWait", duration("maxWait", value, false));
    }

    /**
     * @param value a key template, or empty
     * @return this
     */
    public Builder key(String value) {
      if (value == null) {
        throw invalid("key", null, "a key template, or \"\" for none");
      }
      return put("key", value);
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder maxKeys(int value) {
      return put("maxKeys", atLeast("maxKeys", value, 1));
    }

    /**
     * @param value {@code "local"}, or the name of a backend given to {@code
     *     Registry.builder().backend(name, backend)}
     * @return this
     */
    public Builder backend(String value) {
      return checkedBackend(value);
    }


    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when {@code permits} is missing
     */
    @Override
    public RateLimitConfig build() {
      return new RateLimitConfig(this);
    }
  }
}
