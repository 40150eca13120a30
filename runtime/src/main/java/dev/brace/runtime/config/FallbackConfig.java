package dev.brace.runtime.config;

import java.util.Map;
import java.util.function.BiConsumer;
import dev.brace.Fallback;
import java.util.List;

/**
 * The settings of one fallback: which failures it answers. The method itself is fixed at compile
 * time. Immutable.
 */
public final class FallbackConfig {
  private final String name;
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;

  private FallbackConfig(Builder builder) {
    this.name = builder.name();
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

  /** @return the name */
  public String name() {
    return name;
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

    @Override
    Object convertDefault(String attribute, Object annotationDefault) {
      return RetryConfig.classesOf(annotationDefault);
    }

    /** @return the immutable config */
    public FallbackConfig build() {
      return new FallbackConfig(this);
    }
  }
}
