package dev.brace.runtime.config;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The settings of one retry budget. There is no annotation for a budget ({@code @Retry(budget =
 * "name")} only names one), so its defaults live here: 20% of calls may be retried, plus 10
 * retries per second, over a 10-second window. Immutable.
 */
public final class RetryBudgetConfig extends InstanceConfig {
  static final double DEFAULT_PERCENT_CAN_RETRY = 0.2;
  static final double DEFAULT_MIN_RETRIES_PER_SECOND = 10;
  static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

  private final double percentCanRetry;
  private final double minRetriesPerSecond;
  private final Duration ttl;

  private RetryBudgetConfig(Builder builder) {
    super(builder);
    this.percentCanRetry = builder.get("percentCanRetry");
    this.minRetriesPerSecond = builder.get("minRetriesPerSecond");
    this.ttl = builder.get("ttl");
  }

  /**
   * @param name the budget's name
   * @return a builder with the defaults
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }


  /** @return the fraction of calls that may be retried */
  public double percentCanRetry() {
    return percentCanRetry;
  }

  /** @return retries always allowed per second */
  public double minRetriesPerSecond() {
    return minRetriesPerSecond;
  }

  /** @return the sliding window */
  public Duration ttl() {
    return ttl;
  }

  /** Builds a {@link RetryBudgetConfig}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("percentCanRetry", (b, t) -> b.percentCanRetry(b.decimal("percentCanRetry", t)))
            .add("minRetriesPerSecond", (b, t) -> b.minRetriesPerSecond(b.decimal("minRetriesPerSecond", t)))
            .add("ttl", Builder::ttl)
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.RETRYBUDGET, name, null);
    }

    /**
     * @param value a fraction from 0 to 1
     * @return this
     */
    public Builder percentCanRetry(double value) {
      return put("percentCanRetry", fraction("percentCanRetry", value));
    }

    /**
     * @param value finite, at least 0
     * @return this
     */
    public Builder minRetriesPerSecond(double value) {
      return put("minRetriesPerSecond", finiteAtLeast("minRetriesPerSecond", value, 0));
    }

    /**
     * @param value a duration string from 1s to 60s
     * @return this
     */
    public Builder ttl(String value) {
      return ttl(duration("ttl", value, true));
    }

    /**
     * @param value from 1 second to 60 seconds
     * @return this
     */
    public Builder ttl(Duration value) {
      duration("ttl", value, true);
      if (value.compareTo(Duration.ofSeconds(1)) < 0 || value.compareTo(Duration.ofSeconds(60)) > 0) {
        throw invalid("ttl", dev.brace.runtime.Durations.describe(value), "a duration from 1s to 60s");
      }
      return put("ttl", value);
    }

    @Override
    Object defaultValue(String attribute) {
      switch (attribute) {
        case "percentCanRetry":
          return DEFAULT_PERCENT_CAN_RETRY;
        case "minRetriesPerSecond":
          return DEFAULT_MIN_RETRIES_PER_SECOND;
        case "ttl":
          return DEFAULT_TTL;
        default:
          throw new IllegalArgumentException("a retry budget has no attribute " + attribute);
      }
    }

    /** @return the checked, immutable config */
    @Override
    public RetryBudgetConfig build() {
      return new RetryBudgetConfig(this);
    }
  }
}
