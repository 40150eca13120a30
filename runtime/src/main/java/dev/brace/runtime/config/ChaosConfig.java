package dev.brace.runtime.config;

import dev.brace.runtime.Durations;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The fault injection configured under one name: a call's name ({@code RecsClient.recommendations},
 * a stack's name) or the name of an instance the call uses ({@code recs-api}). At each attempt,
 * before the delegate would be called, a {@code latency} is added with probability {@code
 * latencyRate}, then the attempt fails with {@code fault} with probability {@code faultRate}
 * without calling the dependency. Nothing happens unless fault injection is switched on for the
 * registry ({@code BRACE_CHAOS_ENABLED=true} or {@code brace.chaos.enabled=true}).
 *
 * <p>Defaults: both rates 0 (nothing is injected), no latency, the fault chosen by the call (see
 * {@link #fault()}), and a seed drawn afresh. A latency or a fault set without its rate, or a
 * rate set without its latency, injects nothing and is refused, so a half-written setting never
 * looks like a working one. Immutable.
 */
public final class ChaosConfig extends InstanceConfig {
  /** A Java class name: dot-separated identifiers, {@code $} for a nested class. */
  private static final Pattern CLASS_NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

  private final double faultRate;
  private final String fault;
  private final Duration latency;
  private final double latencyRate;
  private final Long seed;

  private ChaosConfig(Builder builder) {
    super(builder);
    Map<String, Object> set = builder.explicitValues();
    if (set.containsKey("latency") && !set.containsKey("latencyRate")) {
      throw builder.invalid("latencyRate", null,
          "a fraction from 0 to 1 next to latency = " + Durations.describe(builder.get("latency")) + "; without it no attempt is delayed");
    }
    if (set.containsKey("latencyRate") && !set.containsKey("latency")) {
      throw builder.invalid("latency", null,
          "a duration next to latencyRate = " + builder.get("latencyRate") + "; without it there is nothing to add");
    }
    if (set.containsKey("fault") && !set.containsKey("faultRate")) {
      throw builder.invalid("faultRate", null,
          "a fraction from 0 to 1 next to fault = " + builder.get("fault") + "; without it no attempt fails");
    }
    this.faultRate = builder.get("faultRate");
    this.fault = builder.get("fault");
    this.latency = builder.get("latency");
    this.latencyRate = builder.get("latencyRate");
    this.seed = builder.get("seed");
  }

  /**
   * @param name a call's name or the name of an instance a call uses
   * @return a builder that injects nothing yet
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return the fraction of attempts that fail with the fault, from 0 to 1 */
  public double faultRate() {
    return faultRate;
  }

  /**
   * @return the class name of the exception an injected fault throws; null for the call's own
   *     default: {@link java.io.IOException} where the method may throw one (a {@code Stack}'s call
   *     may), else {@link dev.brace.runtime.InjectedFaultException}
   */
  public String fault() {
    return fault;
  }

  /** @return the latency added to a delayed attempt; zero for none */
  public Duration latency() {
    return latency;
  }

  /** @return the fraction of attempts delayed by {@link #latency()}, from 0 to 1 */
  public double latencyRate() {
    return latencyRate;
  }

  /** @return the seed of the random draws, so a run can be repeated; empty for a fresh one */
  public OptionalLong seed() {
    return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
  }

  /** @return whether any attempt can be delayed or failed: a rate above zero (with a latency, for the delay) */
  public boolean injects() {
    return faultRate > 0 || (latencyRate > 0 && !latency.isZero());
  }

  /** Builds a {@link ChaosConfig}; every setter checks its value. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("faultRate", (b, t) -> b.faultRate(b.decimal("faultRate", t)))
            .add("fault", Builder::fault)
            .add("latency", Builder::latency)
            .add("latencyRate", (b, t) -> b.latencyRate(b.decimal("latencyRate", t)))
            .add("seed", Builder::seed)
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.CHAOS, name, null);
    }

    /**
     * @param value the fraction of attempts that fail, from 0 to 1
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is outside 0–1
     */
    public Builder faultRate(double value) {
      return put("faultRate", fraction("faultRate", value));
    }

    /**
     * @param value the exception an injected fault throws: a public, concrete {@link Throwable} with
     *     a public {@code String} constructor, unchecked or declared by the method. Whether the
     *     method may throw it is checked when a wrapper that uses it is created.
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is null
     */
    public Builder fault(Class<? extends Throwable> value) {
      if (value == null) {
        throw invalid("fault", null, "an exception class");
      }
      return put("fault", value.getName());
    }

    /**
     * @param value the exception's class name, e.g. {@code java.io.IOException}
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is not a class name
     */
    public Builder fault(String value) {
      if (value == null || !CLASS_NAME.matcher(value).matches()) {
        throw invalid("fault", value, "an exception's class name, e.g. java.io.IOException");
      }
      return put("fault", value);
    }

    /**
     * @param value the latency added to a delayed attempt, e.g. {@code "2s"}; zero or more
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it does not parse or is negative
     */
    public Builder latency(String value) {
      return put("latency", duration("latency", value, false));
    }

    /**
     * @param value the latency added to a delayed attempt; zero or more
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is null or negative
     */
    public Builder latency(Duration value) {
      return put("latency", duration("latency", value, false));
    }

    /**
     * @param value the fraction of attempts delayed, from 0 to 1
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is outside 0–1
     */
    public Builder latencyRate(double value) {
      return put("latencyRate", fraction("latencyRate", value));
    }

    /**
     * @param value the seed of the random draws: the same seed and settings give the same sequence
     *     of delayed and failed attempts
     * @return this
     */
    public Builder seed(long value) {
      return put("seed", value);
    }

    private Builder seed(String text) {
      try {
        return seed(Long.parseLong(text));
      } catch (NumberFormatException notALong) {
        throw invalid("seed", text, "an integer (a long)");
      }
    }

    @Override
    Object defaultValue(String attribute) {
      switch (attribute) {
        case "faultRate":
        case "latencyRate":
          return 0.0;
        case "latency":
          return Duration.ZERO;
        case "fault":
        case "seed":
          return null;
        default:
          throw new IllegalArgumentException("fault injection has no attribute " + attribute);
      }
    }

    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when a latency or fault is set without its
     *     rate, or a latency rate without a latency
     */
    @Override
    public ChaosConfig build() {
      return new ChaosConfig(this);
    }
  }
}
