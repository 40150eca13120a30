package dev.brace.runtime.config;

import dev.brace.Bulkhead;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/** The settings of one bulkhead: the attributes of {@link Bulkhead}, checked. Immutable. */
public final class BulkheadConfig extends InstanceConfig {
  private final int maxConcurrent;
  private final Duration maxWait;
  private final Bulkhead.Adaptive adaptive;
  private final int minConcurrent;
  private final int initialConcurrent;
  private final double defaultShare;
  private final double sheddableShare;

  private BulkheadConfig(Builder builder) {
    super(builder);
    this.maxConcurrent = builder.get("maxConcurrent");
    this.maxWait = builder.get("maxWait");
    this.adaptive = builder.get("adaptive");
    this.minConcurrent = builder.get("minConcurrent");
    int initial = builder.get("initialConcurrent");
    // A fixed bulkhead's limit is maxConcurrent: the adaptive bounds are ignored, so configuration
    // that makes an adaptive bulkhead fixed (or lowers its ceiling) need not restate them.
    this.initialConcurrent = initial == 0 || adaptive == Bulkhead.Adaptive.NONE ? maxConcurrent : initial;
    this.defaultShare = builder.get("defaultShare");
    this.sheddableShare = builder.get("sheddableShare");
    // Checked together, whichever layer set each: SHEDDABLE calls are shed before DEFAULT ones, so a
    // larger share would admit a sheddable call where an untagged one had just been refused.
    if (sheddableShare > defaultShare) {
      throw builder.invalid(
          "sheddableShare", sheddableShare,
          "a number in (0, defaultShare (" + defaultShare + ")]: SHEDDABLE calls are shed before DEFAULT ones,"
              + " so their share of the limit cannot be the larger"
              + (builder.explicitValues().containsKey("sheddableShare")
                  ? ""
                  : " (" + sheddableShare + " is sheddableShare's default: lowering defaultShare below it"
                      + " needs sheddableShare set as well)"));
    }
    if (adaptive == Bulkhead.Adaptive.NONE) {
      return;
    }
    // Checked together, whichever layer set each: the limit must be able to start between its bounds.
    if (minConcurrent > maxConcurrent) {
      throw builder.invalid("minConcurrent", minConcurrent, "an integer from 1 to maxConcurrent (" + maxConcurrent + ")");
    }
    if (initialConcurrent < minConcurrent || initialConcurrent > maxConcurrent) {
      throw builder.invalid(
          "initialConcurrent", initial,
          "0 for maxConcurrent, or an integer from minConcurrent (" + minConcurrent + ") to maxConcurrent ("
              + maxConcurrent + ")");
    }
  }

  /**
   * @param name the bulkhead's name
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }


  /** @return the most calls in flight */
  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** @return the longest a call waits for a permit */
  public Duration maxWait() {
    return maxWait;
  }

  /** @return how the limit adapts; {@link Bulkhead.Adaptive#NONE} for a fixed one */
  public Bulkhead.Adaptive adaptive() {
    return adaptive;
  }

  /** @return whether the limit adapts to the dependency */
  public boolean isAdaptive() {
    return adaptive != Bulkhead.Adaptive.NONE;
  }

  /** @return the lowest an adaptive limit goes (unused by a fixed bulkhead) */
  public int minConcurrent() {
    return minConcurrent;
  }

  /** @return the limit an adaptive bulkhead starts at ({@link #maxConcurrent()} when 0 was given, and for a fixed bulkhead) */
  public int initialConcurrent() {
    return initialConcurrent;
  }

  /** @return the share of the limit DEFAULT calls may fill, in (0, 1] */
  public double defaultShare() {
    return defaultShare;
  }

  /** @return the share of the limit SHEDDABLE calls may fill, in (0, 1] */
  public double sheddableShare() {
    return sheddableShare;
  }

  /** Builds a {@link BulkheadConfig}; one checked setter per attribute of {@link Bulkhead}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("maxConcurrent", (b, t) -> b.maxConcurrent(b.integer("maxConcurrent", t)))
            .add("maxWait", Builder::maxWait)
            .add("adaptive", (b, t) -> b.adaptive(b.constant("adaptive", t, Bulkhead.Adaptive.class)))
            .add("minConcurrent", (b, t) -> b.minConcurrent(b.integer("minConcurrent", t)))
            .add("initialConcurrent", (b, t) -> b.initialConcurrent(b.integer("initialConcurrent", t)))
            .add("defaultShare", (b, t) -> b.defaultShare(b.decimal("defaultShare", t)))
            .add("sheddableShare", (b, t) -> b.sheddableShare(b.decimal("sheddableShare", t)))
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.BULKHEAD, name, Bulkhead.class);
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder maxConcurrent(int value) {
      return put("maxConcurrent", atLeast("maxConcurrent", value, 1));
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
     * @param value how the limit adapts; {@link Bulkhead.Adaptive#NONE} keeps it at {@code maxConcurrent}
     * @return this
     */
    public Builder adaptive(Bulkhead.Adaptive value) {
      if (value == null) {
        throw invalid("adaptive", null, "one of " + java.util.Arrays.toString(Bulkhead.Adaptive.values()));
      }
      return put("adaptive", value);
    }

    /**
     * @param value at least 1, at most {@code initialConcurrent} and {@code maxConcurrent} (checked by {@link #build()})
     * @return this
     */
    public Builder minConcurrent(int value) {
      return put("minConcurrent", atLeast("minConcurrent", value, 1));
    }

    /**
     * @param value 0 for {@code maxConcurrent}, else from {@code minConcurrent} to {@code maxConcurrent}
     *     (checked by {@link #build()})
     * @return this
     */
    public Builder initialConcurrent(int value) {
      return put("initialConcurrent", atLeast("initialConcurrent", value, 0));
    }

    /**
     * @param value the share of the limit DEFAULT calls may fill, in (0, 1]
     * @return this
     */
    public Builder defaultShare(double value) {
      return put("defaultShare", share("defaultShare", value));
    }

    /**
     * @param value the share of the limit SHEDDABLE calls may fill, in (0, 1], at most {@code
     *     defaultShare} (checked by {@link #build()})
     * @return this
     */
    public Builder sheddableShare(double value) {
      return put("sheddableShare", share("sheddableShare", value));
    }

    private double share(String attribute, double value) {
      if (!(value > 0 && value <= 1)) {
        throw invalid(attribute, value, "a number in (0, 1]");
      }
      return value;
    }


    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when an adaptive bulkhead's {@code
     *     minConcurrent}, {@code initialConcurrent} and {@code maxConcurrent} are out of order, or
     *     when {@code sheddableShare} is larger than {@code defaultShare}
     */
    @Override
    public BulkheadConfig build() {
      return new BulkheadConfig(this);
    }
  }
}
