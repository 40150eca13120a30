package dev.brace.runtime.internal.config;

import dev.brace.runtime.config.Kind;
import java.util.Locale;

/**
 * The names of configuration keys: {@code BRACE_<KIND>_<NAME>_<PROPERTY>} in the
 * environment, {@code brace.<kind>.<name>.<property>} as a system property. An attribute is
 * named by {@link Kind#property}.
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  /** The switch for one metrics series per member of a keyed family, as a system property. */
  public static final String METRICS_PER_KEY_PROPERTY = "brace.metrics.per-key";
  /** The same switch as an environment variable. */
  public static final String METRICS_PER_KEY_ENVIRONMENT = "BRACE_METRICS_PER_KEY";
  /** The switch for deadlines as a whole (every call's {@code inherit}, every call's own bound passed on), as a system property. */
  public static final String DEADLINES_PROPERTY = "brace.deadline.enabled";
  /** The same switch as an environment variable. */
  public static final String DEADLINES_ENVIRONMENT = "BRACE_DEADLINE_ENABLED";
  /** The switch without which no fault injection setting has any effect, as a system property. */
  public static final String CHAOS_ENABLED_PROPERTY = "brace.chaos.enabled";
  /** The same switch as an environment variable. */
  public static final String CHAOS_ENABLED_ENVIRONMENT = "BRACE_CHAOS_ENABLED";
  /** Whether a key that configures nothing is an error rather than a warning, as a system property. */
  public static final String STRICT_CONFIGURATION_PROPERTY = "brace.strict-configuration";
  /** The same switch as an environment variable. */
  public static final String STRICT_CONFIGURATION_ENVIRONMENT = "BRACE_STRICT_CONFIGURATION";

  /**
   * @param kind the instance's kind
   * @param name the instance's name as written
   * @param attribute the attribute as written in the annotation, or {@code enabled}
   * @return e.g. {@code BRACE_CIRCUITBREAKER_RECS_API_FAILURE_THRESHOLD}
   */
  public static String environment(Kind kind, String name, String attribute) {
    return "BRACE_" + kind.name() + "_" + environmentName(name) + "_" + upperSnake(kind.property(attribute));
  }

  /**
   * @param kind the instance's kind
   * @param name the instance's name as written
   * @param attribute the attribute as written in the annotation, or {@code enabled}
   * @return e.g. {@code brace.circuitbreaker.recs-api.failure-threshold}
   */
  public static String systemProperty(Kind kind, String name, String attribute) {
    return "brace." + kind.key() + "." + name + "." + kebab(kind.property(attribute));
  }

  /** @return the name upper-cased, every character that is not a letter or digit turned into {@code _} */
  public static String environmentName(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      out.append(Character.isLetterOrDigit(c) && c < 128 ? Character.toUpperCase(c) : '_');
    }
    return out.toString();
  }

  static String upperSnake(String camel) {
    return separated(camel, '_').toUpperCase(Locale.ROOT);
  }

  static String kebab(String camel) {
    return separated(camel, '-').toLowerCase(Locale.ROOT);
  }

  private static String separated(String camel, char separator) {
    StringBuilder out = new StringBuilder(camel.length() + 4);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        out.append(separator);
      }
      out.append(c);
    }
    return out.toString();
  }
}
