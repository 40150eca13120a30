package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ConfigAudit;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.sequence.CallPolicies;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import dev.brace.runtime.support.ResilientCall;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.LoggerFactory;

/**
 * Applies new environment and system property layers to a registry, all or nothing. It plans in
 * full first — every shared instance's new settings ({@link InstanceCatalog#plan}), then every live
 * call resolved again against the plan — and commits only when no setting was refused: shared
 * instances take their new settings in place and keep their state, and each call switches to its
 * new sequence whole, so a call that has started finishes on the one it started with. What changed
 * is reported as {@code config.changed} events ({@link ConfigChanges}).
 */
final class Reconfiguration {
  private final InstanceCatalog catalog;
  private final CallResolver resolver;
  private final LiveCalls live;
  private final EventBus events;

  /**
   * @param catalog what the registry holds, planned against and then changed
   * @param resolver resolves each live call again
   * @param live the calls resolved and still referenced
   * @param events where the changes are reported
   */
  Reconfiguration(InstanceCatalog catalog, CallResolver resolver, LiveCalls live, EventBus events) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.resolver = Objects.requireNonNull(resolver, "resolver");
    this.live = Objects.requireNonNull(live, "live");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * Runs alone: no call is resolved meanwhile, so none is resolved half on the old layers.
   *
   * @param environment the environment variables to read from now on
   * @param systemProperties the system properties to read from now on
   * @param strict whether a key that configures nothing refuses the reconfiguration (else it is logged)
   * @throws ConfigurationException naming every refused setting; nothing has changed then
   */
  void apply(Map<String, String> environment, Map<String, String> systemProperties, boolean strict) {
    ConfigLayers next = catalog.layers().withExternal(environment, systemProperties);
    Set<String> problems = new LinkedHashSet<>();
    boolean on = switchedOn(next, problems);
    String unknown = ConfigAudit.unknownKeys(knownNames(next), environment, systemProperties, strict);
    if (unknown != null && strict) {
      problems.add(unknown);
    }
    checkSwitches(next, problems);
    InstanceCatalog.Plan plan = catalog.plan(next, on, problems);
    List<Resolved> resolved = new ArrayList<>();
    for (LiveCalls.Live call : live.all()) {
      Resolution resolution = Resolution.again(next, plan, call.definition, call.policies);
      try {
        resolved.add(new Resolved(call.call, resolver.policies(call.definition, resolution), resolution));
      } catch (ConfigurationException refused) {
        resolution.refused.forEach(each -> problems.add(each.getMessage()));
        problems.add(refused.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigurationException(Message.RECONFIGURATION_REFUSED.format(String.join("\n  ", problems)));
    }
    if (unknown != null) {
      LoggerFactory.getLogger("dev.brace").warn(unknown);
    }
    ConfigChanges changes = new ConfigChanges();
    before(changes);
    plan.commit();
    catalog.adopt(next);
    for (Resolved call : resolved) {
      catalog.remember(call.resolution());
      ResilientCalls.switchTo(call.call(), call.policies());
      live.switched(call.call(), call.policies());
    }
    after(changes, next, on, resolved);
    changes.emit(events);
  }

  private static boolean switchedOn(ConfigLayers layers, Set<String> problems) {
    try {
      return layers.globallyEnabled();
    } catch (ConfigurationException refused) {
      problems.add(refused.getMessage());
      return false;
    }
  }

  /**
   * Every name the events report reads its switch; a call-scoped name whose wrapper is gone is not
   * resolved again, so its switch is checked here, before anything is applied.
   */
  private void checkSwitches(ConfigLayers next, Set<String> problems) {
    Map<Kind, Set<String>> names = new EnumMap<>(Kind.class);
    catalog.forEachCallScoped((kind, each) -> names.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(each));
    catalog.forEachSwitchedOff((kind, off) -> names.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(off));
    names.forEach((kind, each) -> each.forEach(name -> {
      try {
        next.enabled(kind, name);
      } catch (ConfigurationException refused) {
        problems.add(refused.getMessage());
      }
    }));
  }

  /** Names a key may address without being a typo: the manifest's (read by the audit), code's, and every live instance's. */
  private Map<Kind, Set<String>> knownNames(ConfigLayers next) {
    Map<Kind, Set<String>> known = new EnumMap<>(Kind.class);
    next.programmaticNames().forEach((kind, names) -> known.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names));
    catalog.names().forEach((kind, names) -> known.computeIfAbsent(kindOf(kind), k -> new TreeSet<>()).addAll(names));
    catalog.forEachSwitchedOff((kind, names) -> known.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names));
    // Fault injection may address a call by its own name.
    known.computeIfAbsent(Kind.CHAOS, k -> new TreeSet<>()).addAll(catalog.callNames());
    return known;
  }

  private static Kind kindOf(String key) {
    return Kind.valueOf(key.toUpperCase(Locale.ROOT));
  }

  /** What every instance ran on before a reconfiguration. */
  private void before(ConfigChanges changes) {
    ConfigLayers now = catalog.layers();
    boolean on = now.globallyEnabled();
    catalog.forEachInstance((kind, name, settings) -> changes.before(kind, name, settings, on && now.enabled(kind, name)));
    catalog.forEachSwitchedOff((kind, names) -> names.forEach(name -> changes.before(kind, name, null, false)));
  }

  /** What every instance runs on after it. */
  private void after(ConfigChanges changes, ConfigLayers next, boolean on, List<Resolved> resolved) {
    for (Resolved call : resolved) {
      call.resolution().configs.forEach((kind, explained) ->
          changes.after(kind, explained.config().name(), explained.config(), true));
      call.resolution().off.forEach((kind, name) -> changes.after(kind, name, null, false));
    }
    catalog.forEachInstance((kind, name, settings) -> changes.after(kind, name, settings, on && next.enabled(kind, name)));
  }

  /** A live call with the policies a planned reconfiguration resolved for it. */
  private record Resolved(ResilientCall call, CallPolicies policies, Resolution resolution) {}
}
