package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.config.SettingText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The instances of one kind that are shared by name (breakers, limiters, bulkheads, retry
 * budgets): the first site that uses a name creates its instance from its settings, every later
 * site gets the same instance. Two sites conflict only when their effective settings differ —
 * whatever each wrote, defaults and outer layers applied — whichever came first.
 *
 * @param <T> the instance type
 */
final class SharedInstances<T> {
  private final Kind kind;
  private final ConcurrentHashMap<String, Shared<T>> byName = new ConcurrentHashMap<>();

  SharedInstances(Kind kind) {
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /**
   * An instance with the settings it was created from, where each came from, the site that
   * created it and every site that uses it.
   */
  private static final class Shared<T> {
    final InstanceConfig config;
    final ExplainedConfig explained;
    final String site;
    final Set<String> sites = ConcurrentHashMap.newKeySet();
    final T instance;

    Shared(ExplainedConfig explained, String site, T instance) {
      this.config = explained.config();
      this.explained = explained;
      this.site = site;
      this.instance = instance;
    }
  }

  /**
   * @param explained the site's effective settings of the instance, with where each came from
   * @param site where it is used, for messages
   * @param create makes the instance on first use
   * @param created told once, after the instance is made
   * @return the shared instance of that name
   * @throws ConfigurationException when an earlier site created it with other effective settings
   */
  T obtain(ExplainedConfig explained, String site, Function<InstanceConfig, T> create, Runnable created) {
    InstanceConfig config = explained.config();
    boolean[] made = {false};
    Shared<T> shared = byName.computeIfAbsent(config.name(), name -> {
      made[0] = true;
      return new Shared<>(explained, site, create.apply(config));
    });
    if (made[0]) {
      created.run();
    } else {
      checkSame(shared, config, site);
    }
    shared.sites.add(site);
    return shared.instance;
  }

  private void checkSame(Shared<T> first, InstanceConfig config, String site) {
    for (Map.Entry<String, Object> value : config.values().entrySet()) {
      Object earlier = first.config.values().get(value.getKey());
      if (!comparable(earlier).equals(comparable(value.getValue()))) {
        throw new ConfigurationException(Message.NAME_CONFLICT.format(
            kind.description(), config.name(), value.getKey(), SettingText.of(earlier), first.site,
            SettingText.of(value.getValue()), site));
      }
    }
  }

  /** Predicates are compared by class: two generated wrappers hold different instances of one. */
  private static Object comparable(Object value) {
    if (value == null) {
      return "none";
    }
    return value instanceof Predicate ? value.getClass() : value;
  }

  /** @return the instance of that name, or null */
  T get(String name) {
    Shared<T> shared = byName.get(name);
    return shared == null ? null : shared.instance;
  }

  /** @return every instance's description: its settings as created, with their sources, and the sites that use it */
  List<Description.Instance> describe() {
    List<Description.Instance> described = new ArrayList<>();
    byName.values().forEach(shared -> described.add(shared.explained.describe(new ArrayList<>(new TreeSet<>(shared.sites)))));
    return described;
  }

  /** @return every instance by name */
  Map<String, T> all() {
    Map<String, T> copy = new LinkedHashMap<>();
    byName.forEach((name, shared) -> copy.put(name, shared.instance));
    return Collections.unmodifiableMap(copy);
  }
}
