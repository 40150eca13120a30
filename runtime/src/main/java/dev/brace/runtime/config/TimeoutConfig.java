package dev.brace.runtime.config;

import dev.brace.Timeout;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;

/** The settings of one timeout: the attributes of {@link Timeout}, checked. Immutable. */
public final class TimeoutConfig extends InstanceConfig {
  private final Duration duration;
  private final Timeout.Mode mode;

  private TimeoutConfig(Builder builder) {
    super(builder);
    if (!builder.explicitValues().containsKey("value")) {
      throw builder.invalid("value", null, "a duration greater than zero (the timeout has no default)");
    }
    this.duration = builder.get("value");
    this.mode = builder.get("mode");
  }

  /**
   * @param name the timeout's name (by default the call name)
   * @return a builder; the duration must be set
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }


  /** @return the deadline of one attempt */
  public Duration duration() {
    return duration;
  }

  /** @return how a synchronous call is stopped */
  public Timeout.Mode mode() {
    return mode;
  }

  /** Builds a {@link TimeoutConfig}; one checked setter per attribute of {@link Timeout}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("value", Builder::duration)
            .add("mode", (b, t) -> b.mode(b.constant("mode", t, Timeout.Mode.class)))
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.TIMEOUT, name, Timeout.class);
    }

    /**
     * @param value a positive duration string (the annotation's {@code value})
     * @return this
     */
    public Builder duration(String value) {
      return put("value", duration("value", value, true));
    }

    /**
     * @param value a positive duration
     * @return this
     */
    public Builder duration(Duration value) {
      return put("value", duration("value", value, true));
    }

    /**
     * @param value how a synchronous call is stopped
     * @return this
     */
    public Builder mode(Timeout.Mode value) {
      if (value == null) {
        throw invalid("mode", null, "INTERRUPT or ABANDON");
      }
      return put("mode", value);
    }

    /** @return the checked, immutable config */
    @Override
    public TimeoutConfig build() {
      return new TimeoutConfig(this);
    }
  }
}
