package dev.brace.runtime.config;

import dev.brace.Bulkhead;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/** The settings of one bulkhead: the attributes of {@link Bulkhead}, checked. Immutable. */
public final class BulkheadConfig extends InstanceConfig {
  private final int maxConcurrent;
  private final Duration maxWait;

  private BulkheadConfig(Builder builder) {
    super(builder);
    this.maxConcurrent = builder.get("maxConcurrent");
    this.maxWait = builder.get("maxWait");
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

  /** Builds a {@link BulkheadConfig}; one checked setter per attribute of {@link Bulkhead}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("maxConcurrent", (b, t) -> b.maxConcurrent(b.integer("maxConcurrent", t)))
            .add("maxWait", Builder::maxWait)
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


    /** @return the checked, immutable config */
    @Override
    public BulkheadConfig build() {
      return new BulkheadConfig(this);
    }
  }
}
