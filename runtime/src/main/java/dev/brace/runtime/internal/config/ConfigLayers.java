package dev.brace.runtime.internal.config;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RetryBudgetConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration above the annotations, lowest first: programmatic settings from {@code
 * Registry.builder()}, then environment variables, then system properties. Resolving a
 * builder lays each layer over the annotation's; a value from text goes through the same checked
 * setter as every other, and a bad one fails naming the key, the value and the accepted form.
 */
public final class ConfigLayers {
  private final Map<Kind, Map<String, ConfigBuilder<?>>> programmatic;
  private final Map<String, String> environment;
  private final Map<String, String> systemProperties;
  private final java.util.function.Function<String, String> keyOrigins;

  /**
   * @param programmatic per kind, per name, what {@code Registry.builder()} set
   * @param environment the environment variables to read
   * @param systemProperties the system properties to read
   */
  public ConfigLayers(
      Map<Kind, Map<String, ConfigBuilder<?>>> programmatic,
      Map<String, String> environment,
      Map<String, String> systemProperties) {
    this(programmatic, environment, systemProperties, key -> null);
  }

  /**
   * @param programmatic per kind, per name, what {@code Registry.builder()} set
   * @param environment the environment variables to read
   * @param systemProperties the system properties to read
   * @param keyOrigins where the application's configuration got a key of the two outer layers, or
   *     null when it does not say
   */
  public ConfigLayers(
      Map<Kind, Map<String, ConfigBuilder<?>>> programmatic,
      Map<String, String> environment,
      Map<String, String> systemProperties,
      java.util.function.Function<String, String> keyOrigins) {
    this.programmatic = Objects.requireNonNull(programmatic, "programmatic");
    this.environment = Objects.requireNonNull(environment, "environment");
    this.systemProperties = Objects.requireNonNull(systemProperties, "systemProperties");
    this.keyOrigins = Objects.requireNonNull(keyOrigins, "keyOrigins");
  }

  /**
   * @param environment the environment variables to read from now on
   * @param systemProperties the system properties to read from now on
   * @return these layers with the programmatic settings kept and the outer two replaced
   */
  public ConfigLayers withExternal(Map<String, String> environment, Map<String, String> systemProperties) {
    return new ConfigLayers(programmatic, environment, systemProperties, keyOrigins);
  }

  /** @return per kind, the names {@code Registry.builder()} configured */
  public Map<Kind, java.util.Set<String>> programmaticNames() {
    Map<Kind, java.util.Set<String>> names = new java.util.EnumMap<>(Kind.class);
    programmatic.forEach((kind, byName) -> names.put(kind, byName.keySet()));
    return names;
  }

  /**
   * @param site the pattern as written at a call site (the lowest layer)
   * @return its config with every higher layer laid over the site's values
   * @throws dev.brace.runtime.ConfigurationException when a value is refused, naming its key
   */
  public InstanceConfig resolve(ConfigBuilder<?> site) {
    return explain(site, site.name()).config();
  }

  /**
   * Resolves a pattern and records, for each attribute, the layer that set it last.
   *
   * @param site the pattern as written at a call site (the lowest layer), or an empty builder
   * @param where the call site, named in the source of what the site wrote
   * @return its config with every higher layer laid over the site's values, and where each value
   *     came from
   * @throws dev.brace.runtime.ConfigurationException when a value is refused, naming its key
   */
  public ExplainedConfig explain(ConfigBuilder<?> site, String where) {
    return explain(site, new Description.Source(Description.Layer.ANNOTATION, where));
  }

  /**
   * As {@link #explain(ConfigBuilder, String)}, for a site that says where its annotation is written.
   *
   * @param site the pattern as written at a call site (the lowest layer), or an empty builder
   * @param written the source of what the site wrote: the method, or the interface it is written on
   * @return its config with every higher layer laid over the site's values, and where each value
   *     came from
   * @throws dev.brace.runtime.ConfigurationException when a value is refused, naming its key
   */
  public ExplainedConfig explain(ConfigBuilder<?> site, Description.Source written) {
    Map<String, Description.Source> sources = new HashMap<>();
    ConfigBuilder<?> layered = layered(site, written, sources);
    try {
      return new ExplainedConfig(layered.build(), sources);
    } catch (ConfigurationException refused) {
      throw namingItsKey(refused, sources);
    }
  }

  /**
   * A value refused only against another ({@code fresh} longer than {@code maxAge}, {@code
   * minConcurrent} above {@code maxConcurrent}) is refused when the config is built, after the
   * layers are laid. When a variable or property set it, the refusal names that key, as it does
   * for a value refused on its own, so the user knows which setting to correct.
   */
  private ConfigurationException namingItsKey(ConfigurationException refused, Map<String, Description.Source> sources) {
    Description.Source source = refused.attribute() == null ? null : sources.get(refused.attribute());
    String value = null;
    if (source != null && source.layer() == Description.Layer.ENVIRONMENT) {
      value = environment.get(source.origin());
    } else if (source != null && source.layer() == Description.Layer.SYSTEM_PROPERTY) {
      value = systemProperties.get(source.origin());
    }
    if (value == null) {
      return refused;
    }
    return new ConfigurationException(
        Message.INVALID_SETTING.format(source.origin(), value, Message.untagged(refused.getMessage())), refused);
  }

  /**
   * @param site the pattern as written at a call site, or an empty builder
   * @return a fresh builder holding the site's values with every higher layer laid over them
   */
  @SuppressWarnings("unchecked")
  <B extends ConfigBuilder<B>> B layered(ConfigBuilder<B> site) {
    return (B) layered(site, new Description.Source(Description.Layer.ANNOTATION, site.name()), new HashMap<>());
  }

  /**
   * @param site the pattern as written at a call site, or an empty builder
   * @param annotation the source of what the site wrote
   * @param sources receives, per attribute, the layer that set it last
   * @return a fresh builder holding the site's values with every higher layer laid over them
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private ConfigBuilder<?> layered(ConfigBuilder<?> site, Description.Source annotation,
      Map<String, Description.Source> sources) {
    Kind kind = site.kind();
    ConfigBuilder fresh = kind.builder(site.name());
    fresh.overlay(site);
    Description.Source written = site.typeDeclaredOn() == null
        ? annotation
        : new Description.Source(Description.Layer.ANNOTATION, site.typeDeclaredOn(), true, "");
    site.explicitValues().keySet().forEach(attribute -> sources.put(attribute, written));
    ConfigBuilder<?> set = programmatic.getOrDefault(kind, Map.of()).get(site.name());
    if (set != null) {
      fresh.overlay(set);
      set.explicitValues().keySet().forEach(attribute -> sources.put(attribute, Description.Source.PROGRAMMATIC));
    }
    return external(kind, fresh, sources);
  }

  /** Lays the environment, then the system properties, over {@code builder}. */
  private ConfigBuilder<?> external(Kind kind, ConfigBuilder<?> builder, Map<String, Description.Source> sources) {
    for (String attribute : builder.textAttributes()) {
      String key = ConfigKeys.environment(kind, builder.name(), attribute);
      if (setText(builder, attribute, key, environment.get(key))) {
        sources.put(attribute, external(Description.Layer.ENVIRONMENT, key));
      }
    }
    for (String attribute : builder.textAttributes()) {
      String key = ConfigKeys.systemProperty(kind, builder.name(), attribute);
      if (setText(builder, attribute, key, systemProperties.get(key))) {
        sources.put(attribute, external(Description.Layer.SYSTEM_PROPERTY, key));
      }
    }
    return builder;
  }

  /** @return the source of a key of an outer layer, with where the application got it when it says */
  private Description.Source external(Description.Layer layer, String key) {
    String origin = keyOrigins.apply(key);
    return new Description.Source(layer, key, false, origin == null ? "" : origin);
  }

  /** @return whether a value was given (and accepted) */
  private static boolean setText(ConfigBuilder<?> builder, String attribute, String key, String value) {
    if (value == null) {
      return false;
    }
    try {
      builder.setText(attribute, value);
      return true;
    } catch (ConfigurationException refused) {
      throw new ConfigurationException(
          Message.INVALID_SETTING.format(key, value, Message.untagged(refused.getMessage())), refused);
    }
  }

  /**
   * @return false when Brace is switched off: every wrapper passes straight through. The system
   *     property {@code brace.enabled}, when set, decides over {@code BRACE_ENABLED}, as a property
   *     decides over a variable for every setting.
   */
  public boolean globallyEnabled() {
    String property = systemProperties.get("brace.enabled");
    return property != null
        ? flag("brace.enabled", property)
        : flag("BRACE_ENABLED", environment.get("BRACE_ENABLED"));
  }

  /**
   * @return whether metrics tag keyed instances by key: {@code brace.metrics.per-key}, else {@code
   *     BRACE_METRICS_PER_KEY}; false when neither is set
   * @throws ConfigurationException when the value is neither {@code true} nor {@code false}
   */
  public boolean metricsPerKey() {
    String property = systemProperties.get(ConfigKeys.METRICS_PER_KEY_PROPERTY);
    String value = property != null ? property : environment.get(ConfigKeys.METRICS_PER_KEY_ENVIRONMENT);
    String key = property != null ? ConfigKeys.METRICS_PER_KEY_PROPERTY : ConfigKeys.METRICS_PER_KEY_ENVIRONMENT;
    return value != null && flag(key, value);
  }

  /**
   * @return whether calls take part in deadlines: {@code brace.deadline.enabled}, else {@code
   *     BRACE_DEADLINE_ENABLED}; true when neither is set
   * @throws ConfigurationException when the value is neither {@code true} nor {@code false}
   */
  public boolean deadlinesEnabled() {
    String property = systemProperties.get(ConfigKeys.DEADLINES_PROPERTY);
    return property != null
        ? flag(ConfigKeys.DEADLINES_PROPERTY, property)
        : flag(ConfigKeys.DEADLINES_ENVIRONMENT, environment.get(ConfigKeys.DEADLINES_ENVIRONMENT));
  }

  /**
   * @return whether fault injection is switched on: {@code brace.chaos.enabled}, else {@code
   *     BRACE_CHAOS_ENABLED}; false when neither is set, so no fault injection setting has an effect
   * @throws ConfigurationException when the value is neither {@code true} nor {@code false}
   */
  public boolean chaosEnabled() {
    String property = systemProperties.get(ConfigKeys.CHAOS_ENABLED_PROPERTY);
    String value = property != null ? property : environment.get(ConfigKeys.CHAOS_ENABLED_ENVIRONMENT);
    String key = property != null ? ConfigKeys.CHAOS_ENABLED_PROPERTY : ConfigKeys.CHAOS_ENABLED_ENVIRONMENT;
    return value != null && flag(key, value);
  }

  /**
   * @return every fault injection setting these layers hold besides the switch itself, sorted: the
   *     {@code BRACE_CHAOS_…} variables, the {@code brace.chaos.…} properties and, as {@code
   *     Registry.builder().chaos("name", …)}, each name set in code
   */
  public java.util.List<String> chaosSettings() {
    java.util.List<String> settings = new java.util.ArrayList<>();
    String environmentPrefix = "BRACE_" + Kind.CHAOS.name() + "_";
    String propertyPrefix = "brace." + Kind.CHAOS.key() + ".";
    environment.keySet().stream().filter(key -> key.startsWith(environmentPrefix)
        && !key.equals(ConfigKeys.CHAOS_ENABLED_ENVIRONMENT)).sorted().forEach(settings::add);
    systemProperties.keySet().stream().filter(key -> key.startsWith(propertyPrefix)
        && !key.equals(ConfigKeys.CHAOS_ENABLED_PROPERTY)).sorted().forEach(settings::add);
    programmatic.getOrDefault(Kind.CHAOS, Map.of()).keySet().stream().sorted()
        .forEach(name -> settings.add("Registry.builder().chaos(\"" + name + "\", …)"));
    return settings;
  }

  /** @return false when the instance's {@code ..._ENABLED} / {@code ....enabled} is false */
  public boolean enabled(Kind kind, String name) {
    String environmentKey = ConfigKeys.environment(kind, name, "enabled");
    String propertyKey = ConfigKeys.systemProperty(kind, name, "enabled");
    String property = systemProperties.get(propertyKey);
    return property != null
        ? flag(propertyKey, property)
        : flag(environmentKey, environment.get(environmentKey));
  }

  private static boolean flag(String key, String value) {
    if (value == null || value.trim().equalsIgnoreCase("true")) {
      return true;
    }
    if (value.trim().equalsIgnoreCase("false")) {
      return false;
    }
    throw new ConfigurationException(Message.INVALID_SWITCH.format(key, value));
  }

  /**
   * @param name a retry budget's name
   * @return its config: defaults, then what {@code Registry.builder().retryBudget} set, then the
   *     environment and system properties
   */
  public RetryBudgetConfig retryBudget(String name) {
    return (RetryBudgetConfig) explainRetryBudget(name).config();
  }

  /**
   * @param name a retry budget's name
   * @return its config as {@link #retryBudget} resolves it, with where each value came from
   */
  public ExplainedConfig explainRetryBudget(String name) {
    return explain(RetryBudgetConfig.builder(name), name);
  }
}
