package dev.brace.runtime.config;

import java.util.Map;
import java.util.Objects;

/**
 * What every built config has: its kind, its name, and every attribute's effective value. Two
 * sites that share a named instance agree when their effective values are equal, however each
 * wrote them.
 */
public abstract class InstanceConfig {
  private final Kind kind;
  private final String name;
  private final Map<String, Object> values;
  private final Map<String, Object> explicitValues;

  InstanceConfig(ConfigBuilder<?> builder) {
    Objects.requireNonNull(builder, "builder");
    this.kind = builder.kind();
    this.name = builder.name();
    this.values = builder.effectiveValues();
    this.explicitValues = Map.copyOf(builder.explicitValues());
  }

  /** @return the kind of instance this configures */
  public final Kind kind() {
    return kind;
  }

  /** @return the instance's name */
  public final String name() {
    return name;
  }

  /**
   * @return every attribute, by the name the annotation gives it, with its effective value
   *     (defaults applied): durations as {@link java.time.Duration}, exception filters as lists of
   *     classes, a result predicate as itself or null
   */
  public final Map<String, Object> values() {
    return values;
  }

  /** @return only the attributes set explicitly, for a copy under another name */
  final Map<String, Object> explicitValues() {
    return explicitValues;
  }
}
