package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.chaos.FaultInjection;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.sequence.CallPolicies;
import dev.brace.runtime.support.CallDefinition;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One resolution of a call, when it is first resolved or again in a planned reconfiguration: what
 * it resolves against, and what it found — the settings of each pattern and the instances switched
 * off — which the registry records only once the call is kept ({@link InstanceCatalog#remember}).
 */
final class Resolution {
  /** The configuration the call is resolved under. */
  final ConfigLayers layers;
  /** Where its shared instances come from: the live ones, or a reconfiguration's plan. */
  final InstanceSource instances;
  final CallDefinition definition;
  /** The sequence the call runs on before a reconfiguration; null when it is first resolved. */
  final CallPolicies before;
  /** Each pattern's effective settings, in call order. */
  final Map<Kind, ExplainedConfig> configs = new EnumMap<>(Kind.class);
  /** The instances configuration switched off, by kind. */
  final Map<Kind, String> off = new EnumMap<>(Kind.class);
  /**
   * In a reconfiguration, every setting of the call that was refused, in call order: nothing is
   * applied before every call has been resolved, so it goes on past a refusal to report them all.
   * Null when the call is first resolved: the first refusal is thrown at once.
   */
  final List<ConfigurationException> refused;
  /** The call's fault injection, or null; its settings are in {@link #configs} under {@code CHAOS}. */
  FaultInjection faults;

  private Resolution(ConfigLayers layers, InstanceSource instances, CallDefinition definition, CallPolicies before,
      List<ConfigurationException> refused) {
    this.layers = layers;
    this.instances = instances;
    this.definition = definition;
    this.before = before;
    this.refused = refused;
  }

  /** A call resolved for the first time, against the live instances. */
  static Resolution first(ConfigLayers layers, InstanceSource live, CallDefinition definition) {
    return new Resolution(layers, live, definition, null, null);
  }

  /** A live call resolved again under new configuration, against a planned reconfiguration. */
  static Resolution again(ConfigLayers next, InstanceSource plan, CallDefinition definition, CallPolicies before) {
    return new Resolution(next, plan, definition, before, new ArrayList<>());
  }
}
