package dev.brace.runtime.config;

import dev.brace.StaleIfError;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The settings of one call's stale answers: the attributes of {@link StaleIfError}, checked.
 * Immutable.
 */
public final class StaleIfErrorConfig extends InstanceConfig {
  private final Duration maxAge;
  private final Duration fresh;
  private final int maxEntries;
  private final String key;
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;

  private StaleIfErrorConfig(Builder builder) {
    super(builder);
    this.maxAge = builder.get("maxAge");
    this.fresh = builder.get("fresh");
    this.maxEntries = builder.get("maxEntries");
    this.key = builder.get("key");
    this.on = builder.get("on");
    this.ignore = builder.get("ignore");
    if (fresh.compareTo(maxAge) > 0) {
      // A remembered result is gone after maxAge, so it could never be fresh for longer.
      throw builder.invalid("fresh", dev.brace.runtime.Durations.describe(fresh),
          "a duration of at most maxAge (" + dev.brace.runtime.Durations.describe(maxAge) + ")");
    }
  }

  /**
   * @param name the call name
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return how old a remembered result may be and still answer a failure */
  public Duration maxAge() {
    return maxAge;
  }

  /** @return how long a remembered result answers without a call; zero when every call calls */
  public Duration fresh() {
    return fresh;
  }

  /** @return whether fresh results answer without a call, one call per key at a time */
  public boolean answersWhileFresh() {
    return !fresh.isZero();
  }

  /** @return the most keys remembered */
  public int maxEntries() {
    return maxEntries;
  }

  /** @return the key template, or empty for every argument */
  public String key() {
    return key;
  }

  /** @return the failures answered from memory */
  public List<Class<? extends Throwable>> on() {
    return on;
  }

  /** @return the failures never answered from memory */
  public List<Class<? extends Throwable>> ignore() {
    return ignore;
  }

  /** Builds a {@link StaleIfErrorConfig}; one checked setter per attribute of {@link StaleIfError}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("maxAge", Builder::maxAge)
            .add("fresh", Builder::fresh)
            .add("maxEntries", (b, t) -> b.maxEntries(b.integer("maxEntries", t)))
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.STALEIFERROR, name, StaleIfError.class);
    }

    /**
     * @param value a positive duration string
     * @return this
     */
    public Builder maxAge(String value) {
      return put("maxAge", duration("maxAge", value, true));
    }

    /**
     * @param value a positive duration
     * @return this
     */
    public Builder maxAge(Duration value) {
      return put("maxAge", duration("maxAge", value, true));
    }

    /**
     * @param value a duration string of zero or more, at most {@code maxAge}
     * @return this
     */
    public Builder fresh(String value) {
      return put("fresh", duration("fresh", value, false));
    }

    /**
     * @param value a duration of zero or more, at most {@code maxAge}
     * @return this
     */
    public Builder fresh(Duration value) {
      return put("fresh", duration("fresh", value, false));
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder maxEntries(int value) {
      return put("maxEntries", atLeast("maxEntries", value, 1));
    }

    /**
     * @param value a key template, or empty for every argument
     * @return this
     */
    public Builder key(String value) {
      if (value == null) {
        throw invalid("key", null, "a key template, or \"\" for every argument");
      }
      return put("key", value);
    }

    /**
     * @param types the failures answered from memory
     * @return this
     */
    @SafeVarargs
    public final Builder on(Class<? extends Throwable>... types) {
      return put("on", classes(types));
    }

    /**
     * @param types the failures never answered from memory
     * @return this
     */
    @SafeVarargs
    public final Builder ignore(Class<? extends Throwable>... types) {
      return put("ignore", classes(types));
    }

    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when {@code fresh} is longer than {@code maxAge}
     */
    @Override
    public StaleIfErrorConfig build() {
      return new StaleIfErrorConfig(this);
    }
  }
}
