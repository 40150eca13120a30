package dev.brace.runtime.config;

import dev.brace.Retry;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** The settings of one retry: the attributes of {@link Retry}, checked. Immutable. */
public final class RetryConfig extends InstanceConfig {
  private final int maxAttempts;
  private final Duration delay;
  private final Duration maxDelay;
  private final double multiplier;
  private final Retry.Jitter jitter;
  private final Duration maxDuration;
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;
  private final Predicate<Object> onResult;
  private final String budget;
  private final Duration maxRetryAfter;

  private RetryConfig(Builder builder) {
    super(builder);
    this.maxAttempts = builder.get("maxAttempts");
    this.delay = builder.get("delay");
    this.maxDelay = builder.get("maxDelay");
    this.multiplier = builder.get("multiplier");
    this.jitter = builder.get("jitter");
    Duration maxDuration = builder.get("maxDuration");
    this.maxDuration = maxDuration.isZero() ? null : maxDuration;
    this.on = builder.get("on");
    this.ignore = builder.get("ignore");
    this.onResult = builder.get("onResult");
    this.budget = builder.get("budget");
    this.maxRetryAfter = builder.get("maxRetryAfter");
    if (maxDelay.compareTo(delay) < 0) {
      throw builder.invalid("maxDelay", describe(maxDelay), "a duration of at least delay (" + describe(delay) + ")");
    }
  }

  private static String describe(Duration duration) {
    return dev.brace.runtime.Durations.describe(duration);
  }

  /**
   * @param name the retry's name (by default the call name)
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }


  /** @return total tries, the first included */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** @return the first backoff */
  public Duration delay() {
    return delay;
  }

  /** @return the cap on any backoff */
  public Duration maxDelay() {
    return maxDelay;
  }

  /** @return the growth factor */
  public double multiplier() {
    return multiplier;
  }

  /** @return the randomisation */
  public Retry.Jitter jitter() {
    return jitter;
  }

  /** @return the longest the call may spend retrying, or empty for no limit */
  public Optional<Duration> maxDuration() {
    return Optional.ofNullable(maxDuration);
  }

  /** @return the exceptions retried */
  public List<Class<? extends Throwable>> on() {
    return on;
  }

  /** @return the exceptions never retried */
  public List<Class<? extends Throwable>> ignore() {
    return ignore;
  }

  /** @return the result predicate (true = retry), or {@code null} */
  public Predicate<Object> onResult() {
    return onResult;
  }

  /** @return the retry budget's name, or empty */
  public String budget() {
    return budget;
  }

  /** @return the cap on a wait raised by a retry-after hint */
  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  /** Builds a {@link RetryConfig}; one checked setter per attribute of {@link Retry}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("maxAttempts", (b, t) -> b.maxAttempts(b.integer("maxAttempts", t)))
            .add("delay", Builder::delay)
            .add("maxDelay", Builder::maxDelay)
            .add("multiplier", (b, t) -> b.multiplier(b.decimal("multiplier", t)))
            .add("jitter", (b, t) -> b.jitter(b.constant("jitter", t, Retry.Jitter.class)))
            .add("maxDuration", Builder::maxDuration)
            .add("budget", Builder::budget)
            .add("maxRetryAfter", Builder::maxRetryAfter)
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.RETRY, name, Retry.class);
    }

    /**
     * @param value total tries, at least 1
     * @return this
     */
    public Builder maxAttempts(int value) {
      return put("maxAttempts", atLeast("maxAttempts", value, 1));
    }

    /**
     * @param value the first backoff, a duration string
     * @return this
     */
    public Builder delay(String value) {
      return put("delay", duration("delay", value, false));
    }

    /**
     * @param value the first backoff
     * @return this
     */
    public Builder delay(Duration value) {
      return put("delay", duration("delay", value, false));
    }

    /**
     * @param value the cap on a backoff, a duration string
     * @return this
     */
    public Builder maxDelay(String value) {
      return put("maxDelay", duration("maxDelay", value, false));
    }

    /**
     * @param value the cap on a backoff
     * @return this
     */
    public Builder maxDelay(Duration value) {
      return put("maxDelay", duration("maxDelay", value, false));
    }

    /**
     * @param value finite, at least 1.0
     * @return this
     */
    public Builder multiplier(double value) {
      return put("multiplier", finiteAtLeast("multiplier", value, 1.0));
    }

    /**
     * @param value the randomisation
     * @return this
     */
    public Builder jitter(Retry.Jitter value) {
      if (value == null) {
        throw invalid("jitter", null, "one of NONE, FULL, EQUAL, DECORRELATED");
      }
      return put("jitter", value);
    }

    /**
     * @param value a duration string, or empty for no limit
     * @return this
     */
    public Builder maxDuration(String value) {
      return put("maxDuration", durationOrNone("maxDuration", value));
    }

    /**
     * @param value a positive duration, or {@code null} for no limit
     * @return this
     */
    public Builder maxDuration(Duration value) {
      return put("maxDuration", value == null ? Duration.ZERO : duration("maxDuration", value, true));
    }

    /**
     * @param types the exceptions retried
     * @return this
     */
    @SafeVarargs
    public final Builder on(Class<? extends Throwable>... types) {
      return put("on", classes(types));
    }

    /**
     * @param types the exceptions never retried
     * @return this
     */
    @SafeVarargs
    public final Builder ignore(Class<? extends Throwable>... types) {
      return put("ignore", classes(types));
    }

    /**
     * @param predicate true means retry the result; {@code null} for none
     * @return this
     */
    @SuppressWarnings("unchecked")
    public Builder onResult(Predicate<?> predicate) {
      return put("onResult", (Predicate<Object>) predicate);
    }

    /**
     * @param value a retry budget's name (letters, digits, {@code . _ - :}), or empty for none
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is null or has other characters
     */
    public Builder budget(String value) {
      return put("budget", budgetName("budget", value));
    }

    /**
     * @param value the cap on a hinted wait, a duration string
     * @return this
     */
    public Builder maxRetryAfter(String value) {
      return put("maxRetryAfter", duration("maxRetryAfter", value, false));
    }

    /**
     * @param value the cap on a hinted wait
     * @return this
     */
    public Builder maxRetryAfter(Duration value) {
      return put("maxRetryAfter", duration("maxRetryAfter", value, false));
    }


    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when values contradict each other
     */
    @Override
    public RetryConfig build() {
      return new RetryConfig(this);
    }
  }

}
