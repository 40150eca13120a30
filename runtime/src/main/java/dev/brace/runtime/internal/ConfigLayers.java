package dev.brace.runtime.internal;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RetryBudgetConfig;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration above the annotations, lowest first: programmatic settings from {@code
 * Registry.builder()}. Resolving a builder lays each layer over the annotation's.
 */
public final class ConfigLayers {
  private final Map<Kind, Map<String, ConfigBuilder<?>>> programmatic;
  private final Map<String, RetryBudgetConfig.Builder> budgets;

  /**
   * @param programmatic per kind, per name, what {@code Registry.builder()} set
   * @param budgets retry budgets set through {@code Registry.builder().retryBudget(...)}
   */
  public ConfigLayers(
      Map<Kind, Map<String, ConfigBuilder<?>>> programmatic, Map<String, RetryBudgetConfig.Builder> budgets) {
    this.programmatic = Objects.requireNonNull(programmatic, "programmatic");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
  }

  /**
   * @param kind the instance's kind
   * @param annotation the annotation layer
   * @param fresh an empty builder of the same kind and name, which receives the layers
   * @param <B> the builder type
   * @return {@code fresh} with the annotation layer and every higher layer laid over it
   */
  @SuppressWarnings("unchecked")
  <B extends ConfigBuilder<B>> B resolve(Kind kind, B annotation, B fresh) {
    fresh.overlay(annotation);
    ConfigBuilder<?> set = programmatic.getOrDefault(kind, Map.of()).get(annotation.name());
    if (set != null) {
      fresh.overlay((B) set);
    }
    return fresh;
  }

  /** @return whether a layer above the annotations sets {@code attribute} of that instance */
  boolean setsOutsideAnnotations(Kind kind, String name, String attribute) {
    ConfigBuilder<?> set = programmatic.getOrDefault(kind, Map.of()).get(name);
    return set != null && set.explicitValues().containsKey(attribute);
  }

  RetryBudget retryBudget(String name, TimeSource time) {
    RetryBudgetConfig.Builder fresh = RetryBudgetConfig.builder(name);
    RetryBudgetConfig.Builder set = budgets.get(name);
    if (set != null) {
      fresh.overlay(set);
    }
    RetryBudgetConfig config = fresh.build();
    return new RetryBudget(name, config.percentCanRetry(), config.minRetriesPerSecond(), config.ttl(), time);
  }
}
