package dev.brace.spring;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Spring's {@code Environment} as the registry's two outer layers of configuration. Every property
 * source is read, in Spring's order: {@code BRACE_…} keys (the process environment, as without
 * Spring) become the environment layer, {@code brace.…} keys (application.yml, command line,
 * system properties, a config server) the system-property layer. A {@code brace.…} key also
 * written as its {@code BRACE_…} twin in a source of higher precedence yields to it, so Spring's
 * precedence holds across both forms (an environment variable overrides application.yml, a
 * command-line argument overrides both).
 *
 * <p>Keys are bound relaxed, as Spring binds its own: {@code brace.circuitBreaker.recs-api.failureRate},
 * {@code brace.circuit-breaker.recs-api.failure_rate} and {@code brace.circuitbreaker.recs-api.failure-rate}
 * are one key; the instance name is taken as written ({@code [name]} brackets removed). The
 * starter's own keys ({@code brace.spring.…}, {@code brace.health.…}, {@code brace.redis.…}, and
 * their {@code BRACE_SPRING_…} forms in the environment) are not instance settings and are left out,
 * and so are {@code brace.deadline.header}, {@code brace.chaos.actuator} and {@code
 * brace.processor-missing}, the starter's, though
 * other {@code brace.deadline.…} and {@code brace.chaos.…} keys are the registry's.
 */
final class SpringEnvironmentLayers {
  private static final String PROPERTY_PREFIX = "brace.";
  private static final String ENVIRONMENT_PREFIX = "BRACE_";
  private static final String[] STARTER_PREFIXES = {"brace.spring.", "brace.health.", "brace.redis."};
  /**
   * Starter keys under a prefix the registry also reads: the deadline header, the switch of the
   * actuator's fault injection operation, and what a bean left unprotected by a missing processor does.
   */
  private static final String[] STARTER_KEYS = {
      BraceDeadlineAutoConfiguration.HEADER, "brace.chaos.actuator", AutoWrapper.PROCESSOR_MISSING};

  private final Map<String, String> environment;
  private final Map<String, String> systemProperties;
  private final Map<String, String> origins;

  private SpringEnvironmentLayers(Map<String, String> environment, Map<String, String> systemProperties,
      Map<String, String> origins) {
    this.environment = environment;
    this.systemProperties = systemProperties;
    this.origins = origins;
  }

  /**
   * @param spring the application's environment
   * @return its Brace keys as the two outer layers, as they are now
   */
  static SpringEnvironmentLayers read(ConfigurableEnvironment spring) {
    Map<String, String> environment = new HashMap<>();
    Map<String, Integer> environmentRank = new HashMap<>();
    Map<String, String> properties = new LinkedHashMap<>();
    Map<String, Integer> propertyRank = new HashMap<>();
    Map<String, String> origins = new HashMap<>();
    int rank = 0;
    for (PropertySource<?> source : spring.getPropertySources()) {
      rank++;
      // Spring's view over every other source: reading it would count each key twice.
      if (!(source instanceof EnumerablePropertySource) || source.getName().equals("configurationProperties")) {
        continue;
      }
      for (String key : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
        Object raw = source.getProperty(key);
        if (raw == null || raw instanceof Map || raw instanceof Iterable) {
          continue;
        }
        String value = spring.resolvePlaceholders(String.valueOf(raw));
        if (key.startsWith(ENVIRONMENT_PREFIX) && !starterKey(key)) {
          if (environment.putIfAbsent(key, value) == null) {
            environmentRank.put(key, rank);
            origin(source, key).ifPresent(origin -> origins.put(key, origin));
          }
        } else if (key.toLowerCase(Locale.ROOT).startsWith(PROPERTY_PREFIX) && !starterKey(key)) {
          String normalized = normalize(key);
          if (properties.putIfAbsent(normalized, value) == null) {
            propertyRank.put(normalized, rank);
            origin(source, key).ifPresent(origin -> origins.put(normalized, origin));
          }
        }
      }
    }
    properties.keySet().removeIf(key -> {
      Integer twin = environmentRank.get(environmentTwin(key));
      return twin != null && twin < propertyRank.get(key);
    });
    return new SpringEnvironmentLayers(Map.copyOf(environment), Map.copyOf(properties), Map.copyOf(origins));
  }

  /**
   * Where Spring got a key, as Spring names it: the resource, line and column for a file
   * ({@code class path resource [application.yml] - 3:26}), else the property source's name
   * ({@code commandLineArgs}, a config server's). Nothing for the process environment and the JVM's
   * system properties, which the registry's own layers already name truly.
   */
  private static Optional<String> origin(PropertySource<?> source, String key) {
    String name = source.getName();
    if (name.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
        || name.equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)) {
      return Optional.empty();
    }
    if (source instanceof OriginLookup<?>) {
      @SuppressWarnings("unchecked")
      Origin origin = ((OriginLookup<String>) source).getOrigin(key);
      if (origin != null) {
        return Optional.of(origin.toString());
      }
    }
    return Optional.of(name);
  }

  /**
   * @param key a key as the registry reads it ({@code BRACE_…}, or {@code brace.…} normalized)
   * @return where Spring got it ({@link #origin}), or null when from the process environment, the
   *     JVM's system properties, or nowhere
   */
  String origin(String key) {
    return origins.get(key);
  }

  /** @return the {@code BRACE_…} settings */
  Map<String, String> environment() {
    return environment;
  }

  /** @return the {@code brace.…} settings, keys normalized */
  Map<String, String> systemProperties() {
    return systemProperties;
  }

  /** @return whether the key (either form: {@code brace.redis.…}, {@code BRACE_REDIS_…}) is the starter's own */
  private static boolean starterKey(String key) {
    String lower = key.toLowerCase(Locale.ROOT).replace('_', '.');
    for (String prefix : STARTER_PREFIXES) {
      if (lower.startsWith(prefix)) {
        return true;
      }
    }
    for (String starterKey : STARTER_KEYS) {
      // Also its environment twin: Spring binds BRACE_DEADLINE_HEADER to the property.
      if (lower.equals(starterKey) || key.equals(environmentTwin(starterKey))) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param key {@code brace.<kind>.<name>.<property>} in any of Spring's relaxed forms
   * @return the form the registry reads: kind in lower case, property in kebab case, name as written
   */
  static String normalize(String key) {
    String rest = key.substring(PROPERTY_PREFIX.length());
    int firstDot = rest.indexOf('.');
    int open = rest.indexOf('[');
    if (open >= 0 && (firstDot < 0 || open < firstDot)) {
      firstDot = open;
    }
    int lastDot = rest.lastIndexOf('.');
    if (firstDot <= 0 || lastDot <= firstDot) {
      // A switch of the registry as a whole (brace.strictConfiguration, brace.metrics.per_key): each part kebab.
      StringBuilder parts = new StringBuilder();
      for (String part : rest.split("\\.", -1)) {
        boolean upperCase = part.equals(part.toUpperCase(Locale.ROOT));
        parts.append(parts.length() == 0 ? "" : ".")
            .append(upperCase ? part.toLowerCase(Locale.ROOT).replace('_', '-') : kebab(part));
      }
      return PROPERTY_PREFIX + parts;
    }
    String kind = rest.substring(0, firstDot).replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    String name = rest.substring(rest.charAt(firstDot) == '.' ? firstDot + 1 : firstDot, lastDot);
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    return PROPERTY_PREFIX + kind + "." + name + "." + kebab(rest.substring(lastDot + 1));
  }

  private static String kebab(String property) {
    StringBuilder out = new StringBuilder(property.length() + 4);
    for (int i = 0; i < property.length(); i++) {
      char c = property.charAt(i);
      if (c == '_') {
        out.append('-');
      } else if (Character.isUpperCase(c)) {
        if (i > 0) {
          out.append('-');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** @return {@code BRACE_<KIND>_<NAME>_<PROPERTY>} for a normalized {@code brace.<kind>.<name>.<property>} */
  static String environmentTwin(String normalized) {
    String rest = normalized.substring(PROPERTY_PREFIX.length());
    StringBuilder out = new StringBuilder(ENVIRONMENT_PREFIX);
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      out.append(Character.isLetterOrDigit(c) && c < 128 ? Character.toUpperCase(c) : '_');
    }
    return out.toString();
  }
}
