package dev.brace.runtime.config;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * How one call takes part in deadlines ({@code dev.brace.runtime.Deadline}), named after the call.
 * There is no annotation: by default every call is bounded by the deadline of the code that calls
 * it. {@code inherit = false} lets one call ignore its caller's deadline — a write that must finish
 * once started, whatever the caller's budget — so that only its own timeout bounds it, and the
 * calls nested in it inherit that alone. Immutable.
 */
public final class DeadlineConfig extends InstanceConfig {
  static final boolean DEFAULT_INHERIT = true;

  private final boolean inherit;

  private DeadlineConfig(Builder builder) {
    super(builder);
    this.inherit = builder.get("inherit");
  }

  /**
   * @param name the call name
   * @return a builder with the defaults
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** @return whether the call is bounded by its caller's deadline */
  public boolean inherit() {
    return inherit;
  }

  /** Builds a {@link DeadlineConfig}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("inherit", (b, t) -> b.inherit(b.flag("inherit", t)))
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.DEADLINE, name, null);
    }

    /**
     * @param value false to let the call ignore its caller's deadline (a write that must finish)
     * @return this
     */
    public Builder inherit(boolean value) {
      return put("inherit", value);
    }

    @Override
    Object defaultValue(String attribute) {
      if (attribute.equals("inherit")) {
        return DEFAULT_INHERIT;
      }
      throw new IllegalArgumentException("a call's deadline has no attribute " + attribute);
    }

    /** @return the immutable config */
    @Override
    public DeadlineConfig build() {
      return new DeadlineConfig(this);
    }
  }
}
