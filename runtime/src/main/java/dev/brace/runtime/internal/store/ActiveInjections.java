package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.chaos.FaultInjection;
import dev.brace.runtime.internal.config.ConfigKeys;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.support.CallDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault injections calls run with now, by call: what {@code describe()}, {@code names()} and a
 * reconfiguration's {@code config.changed} events show of fault injection. Unlike a call's other
 * settings, an injection that is switched off is forgotten, so only active ones are listed.
 *
 * <p>It also says so in the log: a WARN on {@code dev.brace.chaos} when an injection becomes active
 * (or its settings change), and when fault injection settings are given while the switch is off,
 * which is why nothing happens.
 */
final class ActiveInjections {
  private static final Logger LOG = LoggerFactory.getLogger("dev.brace.chaos");

  /** By call name: the injection's settings and where the call is declared. */
  private final Map<String, Active> byCall = new ConcurrentHashMap<>();
  /** By fault injection name: the settings last logged as active. */
  private final Map<String, Map<String, Object>> announced = new ConcurrentHashMap<>();
  /** The settings last logged as ignored because fault injection is switched off. */
  private volatile List<String> ignored = List.of();

  private record Active(ExplainedConfig explained, String site) {}

  /**
   * Notes what a call resolved to, once the call is kept.
   *
   * @param definition the call
   * @param explained its fault injection's settings, or null for none
   * @param injection the injection they made, or null
   */
  void record(CallDefinition definition, ExplainedConfig explained, FaultInjection injection) {
    if (explained == null || injection == null) {
      Active gone = byCall.remove(definition.callName());
      if (gone != null && byCall.values().stream().noneMatch(active -> sameName(active, gone))) {
        announced.remove(gone.explained.config().name());
      }
      return;
    }
    byCall.put(definition.callName(), new Active(explained, definition.site()));
    ChaosConfig config = injection.config();
    if (!config.values().equals(announced.put(config.name(), config.values()))) {
      LOG.warn(Message.CHAOS_ACTIVE.format(config.name(), definition.callName(), whatItDoes(injection), sources(explained)));
    }
  }

  private static boolean sameName(Active one, Active other) {
    return one.explained.config().name().equals(other.explained.config().name());
  }

  /** "fails 50% of attempts with java.io.IOException; delays 10% by 2s" */
  private static String whatItDoes(FaultInjection injection) {
    ChaosConfig config = injection.config();
    List<String> parts = new ArrayList<>();
    if (config.faultRate() > 0) {
      parts.add("fails " + percent(config.faultRate()) + " of attempts with " + injection.faultType().getName());
    }
    if (config.latencyRate() > 0 && !config.latency().isZero()) {
      parts.add("delays " + percent(config.latencyRate()) + " by " + dev.brace.runtime.Durations.describe(config.latency()));
    }
    config.seed().ifPresent(seed -> parts.add("seed " + seed));
    return String.join("; ", parts);
  }

  private static String percent(double rate) {
    double percent = rate * 100;
    return (percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent)) + "%";
  }

  private static String sources(ExplainedConfig explained) {
    Set<String> sources = new TreeSet<>();
    explained.config().values().keySet().forEach(attribute -> {
      Description.Source source = explained.source(attribute);
      if (source.layer() != Description.Layer.DEFAULT) {
        sources.add(source.toString());
      }
    });
    return String.join(", ", sources);
  }

  /**
   * Logs one WARN when fault injection settings are given while fault injection is switched off, once
   * per set of such settings: they would otherwise do nothing without a word.
   *
   * @param layers the configuration the registry runs on from now
   */
  void warnIfSwitchedOff(ConfigLayers layers) {
    boolean on;
    try {
      on = layers.chaosEnabled();
    } catch (ConfigurationException badSwitch) {
      return; // refused with the key named when a call is resolved
    }
    List<String> settings = on ? List.of() : layers.chaosSettings();
    if (!settings.isEmpty() && !settings.equals(ignored)) {
      LOG.warn(Message.CHAOS_OFF.format(String.join(", ", settings),
          ConfigKeys.CHAOS_ENABLED_ENVIRONMENT, ConfigKeys.CHAOS_ENABLED_PROPERTY));
    }
    ignored = settings;
  }

  /** @return each active injection, by its name, with every call site that runs with it */
  List<Description.Instance> describe() {
    Map<String, ExplainedConfig> settings = new TreeMap<>();
    Map<String, Set<String>> sites = new TreeMap<>();
    byCall.values().forEach(active -> {
      String name = active.explained.config().name();
      settings.put(name, active.explained);
      sites.computeIfAbsent(name, n -> new TreeSet<>()).add(active.site);
    });
    List<Description.Instance> instances = new ArrayList<>();
    settings.forEach((name, explained) -> instances.add(explained.describe(new ArrayList<>(sites.get(name)))));
    return instances;
  }

  /** @return the names of the active injections */
  Set<String> names() {
    Set<String> names = new TreeSet<>();
    byCall.values().forEach(active -> names.add(active.explained.config().name()));
    return names;
  }

  /** @return the settings of the active injection of that name, or null */
  InstanceConfig config(String name) {
    for (Active active : byCall.values()) {
      if (active.explained.config().name().equals(name)) {
        return active.explained.config();
      }
    }
    return null;
  }

  /** Tells {@code action} of each active injection, once per name. */
  void forEach(InstanceCatalog.InstanceSettings action) {
    names().forEach(name -> action.accept(Kind.CHAOS, name, config(name)));
  }
}
