package dev.brace.runtime.internal.config;

import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds configuration keys that configure nothing — a typo in a name or a property — and says
 * what was probably meant: {@code BRACE_CIRCUITBREAKER_RECS_APU_FAILURE_THRESHOLD: no circuit
 * breaker RECS_APU; did you mean RECS_API?}. Known names come from the processor's manifest and
 * from {@code Registry.builder()}.
 */
public final class ConfigAudit {
  private static final String ENVIRONMENT_PREFIX = "BRACE_";
  private static final String PROPERTY_PREFIX = "brace.";
  private static final String ENABLED = "enabled";

  private final InstanceManifest known;

  /** @param known every instance name, per kind, that configuration may address */
  public ConfigAudit(InstanceManifest known) {
    this.known = known;
  }

  /**
   * Audits configuration against the processor's manifest (read through the context class loader)
   * and the names given in code.
   *
   * @param configured per kind, names known besides the manifest's (programmatic settings, live instances)
   * @param environment the environment variables
   * @param systemProperties the system properties
   * @return the tagged message listing every key that configures nothing, or null when there is none
   */
  public static String unknownKeys(
      Map<Kind, ? extends java.util.Collection<String>> configured,
      Map<String, String> environment,
      Map<String, String> systemProperties) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    InstanceManifest known = InstanceManifest.load(loader != null ? loader : ConfigAudit.class.getClassLoader());
    List<String> problems = new ConfigAudit(known.plus(configured)).problems(environment, systemProperties);
    return problems.isEmpty()
        ? null
        : dev.brace.runtime.internal.Message.UNKNOWN_KEYS.format(String.join("\n  ", problems));
  }

  /**
   * @param environment the environment variables
   * @param systemProperties the system properties
   * @return one line per key that addresses nothing, in key order; empty when all is well
   */
  public List<String> problems(Map<String, String> environment, Map<String, String> systemProperties) {
    List<String> problems = new ArrayList<>();
    environment.keySet().stream().sorted().forEach(key -> {
      if (key.startsWith(ENVIRONMENT_PREFIX) && !key.equals("BRACE_ENABLED")
          && !key.equals(ConfigKeys.METRICS_PER_KEY_ENVIRONMENT)) {
        String problem = environmentProblem(key);
        if (problem != null) {
          problems.add(problem);
        }
      }
    });
    systemProperties.keySet().stream().sorted().forEach(key -> {
      if (key.startsWith(PROPERTY_PREFIX) && !key.equals("brace.enabled")
          && !key.equals(ConfigKeys.METRICS_PER_KEY_PROPERTY)) {
        String problem = propertyProblem(key);
        if (problem != null) {
          problems.add(problem);
        }
      }
    });
    return problems;
  }

  private String environmentProblem(String key) {
    String rest = key.substring(ENVIRONMENT_PREFIX.length());
    Kind kind = null;
    for (Kind candidate : Kind.values()) {
      if (rest.startsWith(candidate.name() + "_")) {
        kind = candidate;
      }
    }
    if (kind == null) {
      return key + ": no kind " + rest.split("_")[0] + "; expected one of " + kindNames(true);
    }
    String nameAndProperty = rest.substring(kind.name().length() + 1);
    Map<String, String> properties = new LinkedHashMap<>();
    for (String attribute : attributes(kind)) {
      properties.put(ConfigKeys.upperSnake(kind.property(attribute)), attribute);
    }
    String property = null;
    for (String candidate : properties.keySet()) {
      if (nameAndProperty.endsWith("_" + candidate) && (property == null || candidate.length() > property.length())) {
        property = candidate;
      }
    }
    Map<String, String> names = new LinkedHashMap<>();
    for (String name : known.names(kind)) {
      names.put(ConfigKeys.environmentName(name), name);
    }
    if (property == null) {
      for (String name : names.keySet()) {
        if (nameAndProperty.startsWith(name + "_")) {
          String unknown = nameAndProperty.substring(name.length() + 1);
          return key + ": a " + kind.description() + " has no property " + unknown
              + suggestion(unknown, properties.keySet());
        }
      }
      return key + ": no " + kind.description() + " property at the end of " + nameAndProperty
          + "; expected one of " + properties.keySet();
    }
    String name = nameAndProperty.substring(0, nameAndProperty.length() - property.length() - 1);
    if (names.containsKey(name)) {
      return null;
    }
    return key + ": no " + kind.description() + " " + name + suggestion(name, names.keySet());
  }

  private String propertyProblem(String key) {
    String rest = key.substring(PROPERTY_PREFIX.length());
    int dot = rest.indexOf('.');
    Kind kind = null;
    for (Kind candidate : Kind.values()) {
      if (dot > 0 && rest.substring(0, dot).equals(candidate.key())) {
        kind = candidate;
      }
    }
    if (kind == null) {
      return key + ": no kind " + (dot > 0 ? rest.substring(0, dot) : rest) + "; expected one of " + kindNames(false);
    }
    String nameAndProperty = rest.substring(dot + 1);
    int lastDot = nameAndProperty.lastIndexOf('.');
    if (lastDot <= 0) {
      return key + ": expected brace." + kind.key() + ".<name>.<property>";
    }
    String name = nameAndProperty.substring(0, lastDot);
    String property = nameAndProperty.substring(lastDot + 1);
    List<String> properties = new ArrayList<>();
    for (String attribute : attributes(kind)) {
      properties.add(ConfigKeys.kebab(kind.property(attribute)));
    }
    Set<String> names = known.names(kind);
    if (!names.contains(name)) {
      return key + ": no " + kind.description() + " " + name + suggestion(name, names);
    }
    if (!properties.contains(property)) {
      return key + ": a " + kind.description() + " has no property " + property + suggestion(property, properties);
    }
    return null;
  }

  private static List<String> attributes(Kind kind) {
    List<String> attributes = new ArrayList<>(kind.builder("audit").textAttributes());
    attributes.add(ENABLED);
    return attributes;
  }

  private static String kindNames(boolean environment) {
    List<String> names = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      names.add(environment ? kind.name() : kind.key());
    }
    return String.join(", ", names);
  }

  /** "; did you mean X?" for the closest candidate within a few edits, else "". */
  static String suggestion(String typed, Iterable<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = editDistance(typed, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    int tolerance = Math.max(2, typed.length() / 3);
    return best != null && bestDistance <= tolerance ? "; did you mean " + best + "?" : "";
  }

  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
