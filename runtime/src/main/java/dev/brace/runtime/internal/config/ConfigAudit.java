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
 *
 * <p>Only keys meant for Brace are audited: those whose text after the prefix begins with a kind,
 * or within a few edits of one ({@code circutbreaker}, {@code CIRCUIT_BREAKER}), or of Brace's
 * other keys. The prefix alone claims nothing: a build's {@code brace.version} property, which
 * Surefire passes on to tests as a system property, or a {@code BRACE_HOME} variable, belongs to
 * someone else and is left alone.
 */
public final class ConfigAudit {
  private static final String ENVIRONMENT_PREFIX = "BRACE_";
  private static final String PROPERTY_PREFIX = "brace.";
  private static final String ENABLED = "enabled";
  /** Brace's keys that address no instance, as each layer spells them. */
  private static final List<String> OTHER_ENVIRONMENT_KEYS = List.of("BRACE_ENABLED", ConfigKeys.METRICS_PER_KEY_ENVIRONMENT,
      ConfigKeys.DEADLINES_ENVIRONMENT, ConfigKeys.CHAOS_ENABLED_ENVIRONMENT, ConfigKeys.STRICT_CONFIGURATION_ENVIRONMENT);
  private static final List<String> OTHER_PROPERTY_KEYS = List.of("brace.enabled", ConfigKeys.METRICS_PER_KEY_PROPERTY,
      ConfigKeys.DEADLINES_PROPERTY, ConfigKeys.CHAOS_ENABLED_PROPERTY, ConfigKeys.STRICT_CONFIGURATION_PROPERTY);

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
   * @param strict whether the message is an error's (else a warning's, which says how to make it one)
   * @return the tagged message listing every key that configures nothing, or null when there is none
   */
  public static String unknownKeys(
      Map<Kind, ? extends java.util.Collection<String>> configured,
      Map<String, String> environment,
      Map<String, String> systemProperties,
      boolean strict) {
    List<String> problems = unknownKeyProblems(configured, environment, systemProperties);
    if (problems.isEmpty()) {
      return null;
    }
    String listed = String.join("\n  ", problems);
    return strict
        ? dev.brace.runtime.internal.Message.UNKNOWN_KEYS.format(listed)
        : dev.brace.runtime.internal.Message.UNKNOWN_KEYS_WARNING.format(listed);
  }

  /**
   * @param environment the environment variables
   * @param systemProperties the system properties
   * @return whether they ask for keys that configure nothing to be an error: {@code
   *     brace.strict-configuration}, else {@code BRACE_STRICT_CONFIGURATION}; false when neither is set
   * @throws ConfigurationException when the value is neither {@code true} nor {@code false}
   */
  public static boolean strictConfiguration(Map<String, String> environment, Map<String, String> systemProperties) {
    String property = systemProperties.get(ConfigKeys.STRICT_CONFIGURATION_PROPERTY);
    String key = property != null ? ConfigKeys.STRICT_CONFIGURATION_PROPERTY : ConfigKeys.STRICT_CONFIGURATION_ENVIRONMENT;
    String value = property != null ? property : environment.get(key);
    if (value == null || value.trim().equalsIgnoreCase("false")) {
      return false;
    }
    if (value.trim().equalsIgnoreCase("true")) {
      return true;
    }
    throw new dev.brace.runtime.ConfigurationException(dev.brace.runtime.internal.Message.INVALID_SWITCH.format(key, value));
  }

  /**
   * As {@link #unknownKeys}, one line per key, for a caller that throws the tagged message itself.
   *
   * @param configured per kind, names known besides the manifest's (programmatic settings, live instances)
   * @param environment the environment variables
   * @param systemProperties the system properties
   * @return one line per key that configures nothing, empty when there is none
   */
  public static List<String> unknownKeyProblems(
      Map<Kind, ? extends java.util.Collection<String>> configured,
      Map<String, String> environment,
      Map<String, String> systemProperties) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    InstanceManifest known = InstanceManifest.load(loader != null ? loader : ConfigAudit.class.getClassLoader());
    return new ConfigAudit(known.plus(configured)).problems(environment, systemProperties);
  }

  /**
   * @param environment the environment variables
   * @param systemProperties the system properties
   * @return one line per key that addresses nothing, in key order; empty when all is well
   */
  public List<String> problems(Map<String, String> environment, Map<String, String> systemProperties) {
    List<String> problems = new ArrayList<>();
    environment.keySet().stream().sorted().forEach(key -> {
      if (key.startsWith(ENVIRONMENT_PREFIX) && !OTHER_ENVIRONMENT_KEYS.contains(key)) {
        String problem = environmentProblem(key);
        if (problem != null) {
          problems.add(problem);
        }
      }
    });
    systemProperties.keySet().stream().sorted().forEach(key -> {
      if (key.startsWith(PROPERTY_PREFIX) && !OTHER_PROPERTY_KEYS.contains(key)) {
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
      return unknownKindProblem(key, rest, rest.split("_")[0], true);
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
    for (String name : namesOf(kind)) {
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
      return unknownKindProblem(key, rest, dot > 0 ? rest.substring(0, dot) : rest, false);
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
    Set<String> names = namesOf(kind);
    if (!names.contains(name)) {
      return key + ": no " + kind.description() + " " + name + suggestion(name, names);
    }
    if (!properties.contains(property)) {
      return key + ": a " + kind.description() + " has no property " + property + suggestion(property, properties);
    }
    return null;
  }

  /**
   * A key whose kind is none of Brace's: a near miss of a kind or of another Brace key, reported
   * with what was probably meant; or no key of Brace's at all, left alone (null).
   *
   * @param rest the key after the prefix
   * @param typedKind the part of {@code rest} that stands where the kind would
   */
  private static String unknownKindProblem(String key, String rest, String typedKind, boolean environment) {
    List<String> kinds = kindSpellings(environment);
    List<String> others = environment ? OTHER_ENVIRONMENT_KEYS : OTHER_PROPERTY_KEYS;
    List<String> words = new ArrayList<>(kinds);
    String prefix = environment ? ENVIRONMENT_PREFIX : PROPERTY_PREFIX;
    for (String other : others) {
      words.add(other.substring(prefix.length()));
    }
    String meant = begunBy(rest, words);
    if (meant == null) {
      return null;
    }
    if (!kinds.contains(meant)) {
      return key + ": no such key; did you mean " + prefix + meant + "?";
    }
    if (meant.equals(typedKind)) {
      return key + ": expected " + (environment ? key + "_<NAME>_<PROPERTY>" : key + ".<name>.<property>");
    }
    return key + ": no kind " + typedKind + "; expected one of " + String.join(", ", kinds) + "; did you mean " + meant + "?";
  }

  /**
   * @param text a key after its prefix
   * @param words what it might begin with
   * @return the longest of {@code words} that {@code text} begins with, or begins within as many
   *     edits as {@link #suggestion} tolerates for that word; null when there is none
   */
  static String begunBy(String text, List<String> words) {
    String meant = null;
    for (String word : words) {
      if ((meant == null || word.length() > meant.length()) && beginsNear(text, word)) {
        meant = word;
      }
    }
    return meant;
  }

  private static boolean beginsNear(String text, String word) {
    int tolerance = tolerance(word);
    int longest = Math.min(text.length(), word.length() + tolerance);
    for (int length = Math.max(0, word.length() - tolerance); length <= longest; length++) {
      if (editDistance(text.substring(0, length), word) <= tolerance) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fault injection addresses a call by its name or by any instance's name it uses, so every known
   * name is one it may address.
   */
  private Set<String> namesOf(Kind kind) {
    if (kind != Kind.CHAOS) {
      return known.names(kind);
    }
    Set<String> every = new java.util.TreeSet<>();
    for (Kind each : Kind.values()) {
      every.addAll(known.names(each));
    }
    return every;
  }

  private static List<String> attributes(Kind kind) {
    List<String> attributes = new ArrayList<>(kind.builder("audit").textAttributes());
    attributes.add(ENABLED);
    return attributes;
  }

  private static List<String> kindSpellings(boolean environment) {
    List<String> names = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      names.add(environment ? kind.name() : kind.key());
    }
    return names;
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
    return best != null && bestDistance <= tolerance(typed) ? "; did you mean " + best + "?" : "";
  }

  /** How many edits a word may be from what was meant: two, or a third of a longer word. */
  private static int tolerance(String word) {
    return Math.max(2, word.length() / 3);
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
