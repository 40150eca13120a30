package dev.brace.runtime.config;

import dev.brace.Hedge;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** The settings of one hedge: the attributes of {@link Hedge}, checked. Immutable. */
public final class HedgeConfig extends InstanceConfig {
  /** The most hedges one call may start: more would multiply the load on a slow dependency past reason. */
  public static final int MAX_HEDGES = 10;

  private final Duration delay;
  private final int maxHedges;
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;
  private final String budget;

  private HedgeConfig(Builder builder) {
    super(builder);
    this.delay = builder.get("delay");
    this.maxHedges = builder.get("maxHedges");
    this.on = builder.get("on");
    this.ignore = builder.get("ignore");
    this.budget = builder.get("budget");
  }

  /**
   * @param name the hedge's name (by default the call name)
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return how long after the latest attempt started the next one starts, if none has answered */
  public Duration delay() {
    return delay;
  }

  /** @return how many attempts may start beyond the first */
  public int maxHedges() {
    return maxHedges;
  }

  /** @return the failures after which the next hedge starts at once */
  public List<Class<? extends Throwable>> on() {
    return on;
  }

  /** @return the failures that decide the call even when they match {@link #on()} */
  public List<Class<? extends Throwable>> ignore() {
    return ignore;
  }

  /** @return the retry budget's name, or empty */
  public String budget() {
    return budget;
  }

  /** Builds a {@link HedgeConfig}; one checked setter per attribute of {@link Hedge}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("delay", Builder::delay)
            .add("maxHedges", (b, t) -> b.maxHedges(b.integer("maxHedges", t)))
            .add("budget", Builder::budget)
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.HEDGE, name, Hedge.class);
    }

    /**
     * @param value the wait before the next hedge, a duration string; "0ms" sends every hedge at once
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it does not parse or is negative
     */
    public Builder delay(String value) {
      return put("delay", duration("delay", value, false));
    }

    /**
     * @param value the wait before the next hedge; zero sends every hedge at once
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is null or negative
     */
    public Builder delay(Duration value) {
      return put("delay", duration("delay", value, false));
    }

    /**
     * @param value attempts beyond the first, from 1 to {@value HedgeConfig#MAX_HEDGES}
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when out of range
     */
    public Builder maxHedges(int value) {
      return put("maxHedges", between("maxHedges", value, 1, MAX_HEDGES));
    }

    /**
     * @param types the failures after which the next hedge starts at once
     * @return this
     * @throws NullPointerException when a type is null
     */
    @SafeVarargs
    public final Builder on(Class<? extends Throwable>... types) {
      return put("on", classes(types));
    }

    /**
     * @param types the failures that decide the call even when they match {@code on}
     * @return this
     * @throws NullPointerException when a type is null
     */
    @SafeVarargs
    public final Builder ignore(Class<? extends Throwable>... types) {
      return put("ignore", classes(types));
    }

    /**
     * @param value a retry budget's name (letters, digits, {@code . _ - :}), or empty for none
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when it is null or has other characters
     */
    public Builder budget(String value) {
      return put("budget", budgetName("budget", value));
    }

    /** @return the checked, immutable config */
    @Override
    public HedgeConfig build() {
      return new HedgeConfig(this);
    }
  }
}
