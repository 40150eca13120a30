package dev.brace.runtime.config;

import dev.brace.RateLimit;
import dev.brace.runtime.RateLimitedException;
import java.time.Duration;
import java.util.List;
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
  private final boolean adaptive;
  private final double minPermits;
  private final List<Class<? extends Throwable>> throttledOn;
  private final double decrease;
  private final double increase;

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
    this.adaptive = builder.get("adaptive");
    int minPermits = builder.get("minPermits");
    if (minPermits > permits) {
      throw builder.invalid("minPermits", minPermits, "0 for a tenth of permits, or an integer from 1 to permits (" + permits + ")");
    }
    this.minPermits = minPermits == 0 ? permits / 10.0 : minPermits;
    List<Class<? extends Throwable>> throttledOn = builder.get("throttledOn");
    // The annotation cannot name a runtime class, so its empty default stands for Brace's own refusal.
    this.throttledOn = throttledOn.isEmpty() ? List.of(RateLimitedException.class) : throttledOn;
    this.decrease = builder.get("decrease");
    double increase = builder.get("increase");
    this.increase = increase == 0 ? permits / 100.0 : increase;
    if (adaptive && !key.isEmpty()) {
      // The outcome that moves the rate comes back without the call's key, so the rate is one per name.
      throw builder.invalid("adaptive", true, "false for a keyed limiter (key \"" + key + "\"): an adaptive rate is one per limiter name");
    }
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

  /** @return whether the rate backs off when the dependency throttles */
  public boolean adaptive() {
    return adaptive;
  }

  /** @return the lowest an adaptive rate goes, in permits per {@link #per()} (a tenth of {@link #permits()} when 0 was given) */
  public double minPermits() {
    return minPermits;
  }

  /** @return the failures that say the dependency throttles ({@code RateLimitedException} when none was given) */
  public List<Class<? extends Throwable>> throttledOn() {
    return throttledOn;
  }

  /** @return what a throttling failure multiplies the rate by, in (0, 1) */
  public double decrease() {
    return decrease;
  }

  /** @return permits per {@link #per()} each success adds back (a hundredth of {@link #permits()} when 0 was given) */
  public double increase() {
    return increase;
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
            .add("adaptive", (b, t) -> b.adaptive(b.flag("adaptive", t)))
            .add("minPermits", (b, t) -> b.minPermits(b.integer("minPermits", t)))
            .add("decrease", (b, t) -> b.decrease(b.decimal("decrease", t)))
            .add("increase", (b, t) -> b.increase(b.decimal("increase", t)))
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
     * @param value whether the rate backs off when the dependency throttles
     * @return this
     */
    public Builder adaptive(boolean value) {
      return put("adaptive", value);
    }

    /**
     * @param value 0 for a tenth of {@code permits}, else at most {@code permits} (checked by {@link #build()})
     * @return this
     */
    public Builder minPermits(int value) {
      return put("minPermits", atLeast("minPermits", value, 0));
    }

    /**
     * @param types the failures that say the dependency throttles; none means {@code RateLimitedException}
     * @return this
     */
    @SafeVarargs
    public final Builder throttledOn(Class<? extends Throwable>... types) {
      return put("throttledOn", classes(types));
    }

    /**
     * @param value what a throttling failure multiplies the rate by, in (0, 1)
     * @return this
     */
    public Builder decrease(double value) {
      if (!(value > 0 && value < 1)) {
        throw invalid("decrease", value, "a number in (0, 1)");
      }
      return put("decrease", value);
    }

    /**
     * @param value permits per {@code per} each success adds back; 0 for a hundredth of {@code permits}
     * @return this
     */
    public Builder increase(double value) {
      return put("increase", finiteAtLeast("increase", value, 0));
    }


    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when {@code permits} is missing, or {@code
     *     minPermits} exceeds it
     */
    @Override
    public RateLimitConfig build() {
      return new RateLimitConfig(this);
    }
  }
}
