package dev.brace.runtime.internal.store;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.config.ConfigValues;
import dev.brace.runtime.internal.event.EventBus;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a reconfiguration changes, per instance and property, reported as one {@code
 * config.changed} event each ({@code kind}, {@code property}, {@code from}, {@code to}). Values are
 * compared as text, the way a person wrote them; {@code enabled} is reported like any property.
 */
final class ConfigChanges {
  private final Map<Kind, Map<String, Sides>> instances = new EnumMap<>(Kind.class);

  /** One instance's settings before and after; the first site to report a side decides it. */
  private static final class Sides {
    Map<String, String> before;
    Map<String, String> after;
    boolean enabledBefore;
    boolean enabledAfter;
  }

  /**
   * @param config the settings it ran on, or null when it had none (it was switched off)
   * @param enabled whether it took part in calls
   */
  void before(Kind kind, String name, InstanceConfig config, boolean enabled) {
    Sides sides = sides(kind, name);
    if (sides.before == null) {
      sides.before = described(config);
      sides.enabledBefore = enabled;
    }
  }

  /**
   * @param config the settings it runs on from now, or null when it has none (it is switched off)
   * @param enabled whether it takes part in calls from now
   */
  void after(Kind kind, String name, InstanceConfig config, boolean enabled) {
    Sides sides = sides(kind, name);
    if (sides.after == null) {
      sides.after = described(config);
      sides.enabledAfter = enabled;
    }
  }

  private Sides sides(Kind kind, String name) {
    return instances.computeIfAbsent(kind, k -> new TreeMap<>()).computeIfAbsent(name, n -> new Sides());
  }

  private static Map<String, String> described(InstanceConfig config) {
    Map<String, String> values = new LinkedHashMap<>();
    if (config != null) {
      config.values().forEach((attribute, value) ->
          values.put(config.kind().property(attribute), ConfigValues.plain(value)));
    }
    return values;
  }

  /** Emits one event per changed property, kinds in call order, names sorted. */
  void emit(EventBus events) {
    if (!events.enabled(EventKind.CONFIG_CHANGED)) {
      return;
    }
    instances.forEach((kind, byName) -> byName.forEach((name, sides) -> {
      if (sides.enabledBefore != sides.enabledAfter) {
        changed(events, kind, name, "enabled", String.valueOf(sides.enabledBefore), String.valueOf(sides.enabledAfter));
      }
      if (sides.before == null || sides.after == null) {
        return;
      }
      sides.before.forEach((property, from) -> {
        String to = sides.after.get(property);
        if (to != null && !Objects.equals(from, to)) {
          changed(events, kind, name, property, from, to);
        }
      });
    }));
  }

  private static void changed(EventBus events, Kind kind, String name, String property, String from, String to) {
    events.emit(EventKind.CONFIG_CHANGED, name, "kind", kind.key(), "property", property, "from", from, "to", to);
  }
}
