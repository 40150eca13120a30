package dev.brace.runtime.internal.config;

import dev.brace.runtime.Durations;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A setting's effective value as a user reads it in a message or a description: a duration as
 * configuration writes it ({@code 100ms}), a class by its name, exception filters as {@code {a,
 * b}}, a result predicate by its class, text in quotes, nothing as {@code none}.
 */
public final class SettingText {
  private SettingText() {}

  /**
   * @param value an effective value from {@code InstanceConfig.values()}
   * @return it as text
   */
  public static String of(Object value) {
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
      return ((List<?>) value).stream().map(SettingText::of).collect(Collectors.joining(", ", "{", "}"));
    }
    if (value instanceof String) {
      return "\"" + value + "\"";
    }
    return String.valueOf(value);
  }
}
