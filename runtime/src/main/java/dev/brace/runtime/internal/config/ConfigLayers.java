package dev.brace.runtime.internal.config;

import dev.brace.runtime.internal.policy.RetryBudget;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RetryBudgetConfig;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration above the annotations, lowest first: programmatic settings from {@code
 * Registry.builder()}, then environment variables, then system properties (SPEC §6). Resolving a
 * builder lays each layer over the annotation's; a value from text goes through the same checked
 * setter as every other, and a bad one fails naming the key, the value and the accepted form.
 */
public final class ConfigLayers {
  private final Map<Kind, Map<String, ConfigBuilder<?>>> programmatic;
  private final Map<String, RetryBudgetConfig.Builder> budgets;
  private final Map<String, String> environment;
  private final Map<String, String> systemProperties;

  /**
   * @param programmatic per kind, per name, what {@code Registry.builder()} set
   * @param budgets retry budgets set through {@code Registry.builder().retryBudget(...)}
   * @param environment the environment variables to read
   * @param systemProperties the system properties to read
   */
  public ConfigLayers(
      Map<Kind, Map<String, ConfigBuilder<?>>> programmatic,
      Map<String, RetryBudgetConfig.Builder> budgets,
      Map<String, String> environment,
      Map<String, String> systemProperties) {
    this.programmatic = Objects.requireNonNull(programmatic, "programmatic");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.environment = Objects.requireNonNull(environment, "environment");
    this.systemProperties = Objects.requireNonNull(systemProperties, "systemProperties");
  }

  /**
   * @param kind the instance's kind
   * @param annotation the annotation layer
   * @param fresh an empty builder of the same kind and name, which receives the layers
   * @param <B> the builder type
   * @return {@code fresh} with the annotation layer and every higher layer laid over it
   */
  @SuppressWarnings("unchecked")
  public <B extends ConfigBuilder<B>> B resolve(Kind kind, B annotation, B fresh) {
    fresh.overlay(annotation);
    ConfigBuilder<?> set = programmatic.getOrDefault(kind, Map.of()).get(annotation.name());
    if (set != null) {
      fresh.overlay((B) set);
    }
    return external(kind, fresh);
  }

  /** Lays the environment, then the system properties, over {@code builder}. */
  private <B extends ConfigBuilder<B>> B external(Kind kind, B builder) {
    for (String attribute : builder.textAttributes()) {
      String key = ConfigKeys.environment(kind, builder.name(), attribute);
      setText(builder, attribute, key, environment.get(key));
    }
    for (String attribute : builder.textAttributes()) {
      String key = ConfigKeys.systemProperty(kind, builder.name(), attribute);
      setText(builder, attribute, key, systemProperties.get(key));
    }
    return builder;
  }

  private static void setText(ConfigBuilder<?> builder, String attribute, String key, String value) {
    if (value == null) {
      return;
    }
    try {
      builder.setText(attribute, value);
    } catch (ConfigurationException refused) {
      throw new ConfigurationException(key + "=" + value + ": " + refused.getMessage(), refused);
    }
  }

  /** @return whether a layer above the annotations sets {@code attribute} of that instance */
  public boolean setsOutsideAnnotations(Kind kind, String name, String attribute) {
    ConfigBuilder<?> set = programmatic.getOrDefault(kind, Map.of()).get(name);
    return (set != null && set.explicitValues().containsKey(attribute))
        || environment.containsKey(ConfigKeys.environment(kind, name, attribute))
        || systemProperties.containsKey(ConfigKeys.systemProperty(kind, name, attribute));
  }

  /** @return false when {@code BRACE_ENABLED} or {@code brace.enabled} is false: every wrapper passes through */
  public boolean globallyEnabled() {
    return flag("BRACE_ENABLED", environment.get("BRACE_ENABLED"))
        && flag("brace.enabled", systemProperties.get("brace.enabled"));
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
    throw new ConfigurationException(key + "=" + value + ": expected true or false");
  }

  public RetryBudget retryBudget(String name, TimeSource time) {
    RetryBudgetConfig.Builder fresh = RetryBudgetConfig.builder(name);
    RetryBudgetConfig.Builder set = budgets.get(name);
    if (set != null) {
      fresh.overlay(set);
    }
    RetryBudgetConfig config = external(Kind.RETRYBUDGET, fresh).build();
    return new RetryBudget(name, config.percentCanRetry(), config.minRetriesPerSecond(), config.ttl(), time);
  }
}
