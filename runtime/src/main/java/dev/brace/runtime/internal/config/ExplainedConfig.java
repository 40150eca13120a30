package dev.brace.runtime.internal.config;

import dev.brace.runtime.Description;
import dev.brace.runtime.config.InstanceConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A resolved config with, for each attribute a layer set, the layer that set it last: what {@code
 * registry.describe()} shows. {@link ConfigLayers} builds both together, so the explanation is the
 * resolution itself, never worked out again afterwards.
 */
public final class ExplainedConfig {
  private final InstanceConfig config;
  private final Map<String, Description.Source> sources;

  ExplainedConfig(InstanceConfig config, Map<String, Description.Source> sources) {
    this.config = Objects.requireNonNull(config, "config");
    this.sources = Map.copyOf(sources);
  }

  /** @return the config */
  public InstanceConfig config() {
    return config;
  }

  /**
   * @param attribute an attribute as the annotation names it
   * @return the layer that set it, {@link Description.Source#DEFAULT} when none did
   */
  public Description.Source source(String attribute) {
    return sources.getOrDefault(attribute, Description.Source.DEFAULT);
  }

  /**
   * @param sites the call sites that use the instance
   * @return the instance's description: every effective value with its source
   */
  public Description.Instance describe(List<String> sites) {
    List<Description.Setting> settings = new ArrayList<>();
    config.values().forEach((attribute, value) -> settings.add(new Description.Setting(
        config.kind().property(attribute), meansNone(attribute, value) ? "none" : ConfigValues.describe(value), source(attribute))));
    return new Description.Instance(config.kind(), config.name(), settings, sites);
  }

  /**
   * A duration whose annotation default is the empty text ({@code @Retry(maxDuration)}) is kept
   * as zero when unset, but means "no limit", not "no time at all".
   */
  private boolean meansNone(String attribute, Object value) {
    return Duration.ZERO.equals(value) && config.kind().defaultsToEmptyText(attribute);
  }
}
