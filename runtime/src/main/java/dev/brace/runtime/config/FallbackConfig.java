package dev.brace.runtime.config;

import java.util.Map;
import java.util.function.BiConsumer;
import dev.brace.Fallback;
import java.util.List;

/**
 * The settings of one fallback: which failures it answers. The method itself is fixed at compile
 * time. Immutable.
 */
public final class FallbackConfig extends InstanceConfig {
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;

  private FallbackConfig(Builder builder) {
    super(builder);
    this.on = builder.get("on");
    this.ignore = builder.get("ignore");
  }

  /**
   * @param name the call name
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }


  /** @return the failures answered */
  public List<Class<? extends Throwable>> on() {
    return on;
  }

  /** @return the failures never answered */
  public List<Class<? extends Throwable>> ignore() {
    return ignore;
  }

  /** Builds a {@link FallbackConfig}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.FALLBACK, name, Fallback.class);
    }

    /**
     * @param types the failures answered
     * @return this
     */
    @SafeVarargs
    public final Builder on(Class<? extends Throwable>... types) {
      return put("on", classes(types));
    }

    /**
     * @param types the failures never answered
     * @return this
     */
    @SafeVarargs
    public final Builder ignore(Class<? extends Throwable>... types) {
      return put("ignore", classes(types));
    }


    /** @return the immutable config */
    @Override
    public FallbackConfig build() {
      return new FallbackConfig(this);
    }
  }
}
