package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.chaos.FaultInjection;
import dev.brace.runtime.internal.chaos.FaultType;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.support.CallDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Finds the fault injection of a call when it is resolved. Nothing unless fault injection is
 * switched on for the registry; then one name decides: the call's own name when settings are
 * given under it, else the first of its instances' names, in call order, that has some (a name
 * switched off with {@code _ENABLED=false} has none). Its exception is checked against what the
 * method may throw. A call whose settings inject nothing (both rates 0) gets none, so its attempts
 * pay nothing.
 */
final class FaultInjections {
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;

  FaultInjections(TimeSource time, Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * @param definition the call
   * @param resolution records the settings found ({@link Resolution#configs}, {@link Resolution#faults})
   * @return the call's fault injection, or null when nothing is injected into it
   * @throws ConfigurationException a refused setting, when the call is first resolved (in a
   *     reconfiguration it is added to {@link Resolution#refused} instead)
   */
  FaultInjection resolve(CallDefinition definition, Resolution resolution) {
    try {
      FaultInjection found = find(definition, resolution);
      resolution.faults = found;
      return found;
    } catch (ConfigurationException refused) {
      if (resolution.refused == null) {
        throw refused;
      }
      resolution.refused.add(refused);
      return null;
    }
  }

  private FaultInjection find(CallDefinition definition, Resolution resolution) {
    ConfigLayers layers = resolution.layers;
    if (!layers.chaosEnabled()) {
      return null;
    }
    for (Map.Entry<String, String> candidate : names(definition).entrySet()) {
      String name = candidate.getKey();
      if (!layers.enabled(Kind.CHAOS, name)) {
        continue;
      }
      ChaosConfig.Builder site = name.equals(definition.callName()) && definition.chaos() != null
          ? definition.chaos()
          : ChaosConfig.builder(name);
      ExplainedConfig explained = layers.explain(site, definition.site());
      if (!anySet(explained)) {
        continue;
      }
      ChaosConfig config = (ChaosConfig) explained.config();
      if (!config.injects()) {
        return null;
      }
      resolution.configs.put(Kind.CHAOS, explained);
      FaultType fault = config.fault() == null
          ? FaultType.defaultFor(definition.throwsTypes())
          : FaultType.of(config.fault(), setting(explained, config), name, definition.callName(),
              definition.throwsTypes(), definition.faultFactories(), Thread.currentThread().getContextClassLoader(),
              definition.invoker() == null ? null : definition.invoker().getClass().getClassLoader(),
              FaultInjections.class.getClassLoader());
      FaultInjection before = resolution.before == null ? null : resolution.before.attempts().bounds().faults();
      if (before != null && before.config().values().equals(config.values()) && before.faultType() == fault.type()) {
        // Unchanged by a reconfiguration of something else: a seeded sequence goes on where it was.
        return before;
      }
      return new FaultInjection(config, definition.callName(), candidate.getValue(), fault, time, scheduler, events);
    }
    return null;
  }

  /** @return the names settings may address the call by, in the order they decide, with what each names */
  private static Map<String, String> names(CallDefinition definition) {
    Map<String, String> names = new LinkedHashMap<>();
    names.put(definition.callName(), "call");
    for (ConfigBuilder<?> pattern : definition.patterns().values()) {
      names.putIfAbsent(pattern.name(), pattern.kind().key());
    }
    return names;
  }

  private static boolean anySet(ExplainedConfig explained) {
    for (String attribute : explained.config().values().keySet()) {
      if (explained.source(attribute).layer() != Description.Layer.DEFAULT) {
        return true;
      }
    }
    return false;
  }

  /** @return the setting that named the fault, as the user wrote it */
  private static String setting(ExplainedConfig explained, ChaosConfig config) {
    Description.Source source = explained.source("fault");
    switch (source.layer()) {
      case ENVIRONMENT:
      case SYSTEM_PROPERTY:
        return source.origin() + "=" + config.fault();
      case PROGRAMMATIC:
        return "Registry.builder().chaos(\"" + config.name() + "\", …) fault = " + config.fault();
      default:
        return source.origin() + " fault = " + config.fault();
    }
  }
}
