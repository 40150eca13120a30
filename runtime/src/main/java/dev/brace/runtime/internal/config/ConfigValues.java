package dev.brace.runtime.internal.config;

import dev.brace.runtime.Durations;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * How a setting's value is shown to people (in conflict messages, {@code config.changed} events and
 * the actuator) and compared: durations as {@code 250ms}, exception classes and result predicates
 * by class name, texts quoted only where a message needs to show an empty one.
 */
public final class ConfigValues {
  private ConfigValues() {}

  /**
   * @param value an effective value of a config ({@code InstanceConfig.values()})
   * @return the value as a person writes it: {@code 250ms}, {@code java.io.IOException}, {@code
   *     {a, b}}, {@code "text"}; {@code none} for null
   */
  public static String describe(Object value) {
    if (value instanceof String) {
      return "\"" + value + "\"";
    }
    return plain(value);
  }

  /**
   * @param value an effective value of a config
   * @return as {@link #describe}, but a text unquoted, as a configuration key would give it
   */
  public static String plain(Object value) {
    if (value == null) {
      return "none";
    }
    if (value instanceof Duration) {
      return Durations.describe((Duration) value);
    }
    if (value instanceof Class) {
      return ((Class<?>) value).getName();
    }
    if (value instanceof Predicate) {
      return value.getClass().getName();
    }
    if (value instanceof List) {
      return ((List<?>) value).stream().map(ConfigValues::plain).collect(Collectors.joining(", ", "{", "}"));
    }
    return String.valueOf(value);
  }

  /**
   * Predicates are compared by class: two generated wrappers hold different instances of one.
   *
   * @param value an effective value
   * @return what two values are compared by
   */
  public static Object comparable(Object value) {
    if (value == null) {
      return "none";
    }
    return value instanceof Predicate ? value.getClass() : value;
  }
}
