package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Durations;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

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

  /** An instance with the settings and the site it was created from. */
  private static final class Shared<T> {
    final InstanceConfig config;
    final String site;
    final T instance;

    Shared(InstanceConfig config, String site, T instance) {
      this.config = config;
      this.site = site;
      this.instance = instance;
    }
  }

  /**
   * @param config the site's effective settings of the instance
   * @param site where it is used, for messages
   * @param create makes the instance on first use
   * @param created told once, after the instance is made
   * @return the shared instance of that name
   * @throws ConfigurationException when an earlier site created it with other effective settings
   */
  T obtain(InstanceConfig config, String site, Function<InstanceConfig, T> create, Runnable created) {
    boolean[] made = {false};
    Shared<T> shared = byName.computeIfAbsent(config.name(), name -> {
      made[0] = true;
      return new Shared<>(config, site, create.apply(config));
    });
    if (made[0]) {
      created.run();
    } else {
      checkSame(shared, config, site);
    }
    return shared.instance;
  }

  private void checkSame(Shared<T> first, InstanceConfig config, String site) {
    for (Map.Entry<String, Object> value : config.values().entrySet()) {
      Object earlier = first.config.values().get(value.getKey());
      if (!comparable(earlier).equals(comparable(value.getValue()))) {
        throw new ConfigurationException(Message.NAME_CONFLICT.format(
            kind.description(), config.name(), value.getKey(), describe(earlier), first.site,
            describe(value.getValue()), site));
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

  private static String describe(Object value) {
    if (value == null) {
      return "none";
    }
    if (value instanceof Duration) {
      return Durations.describe((Duration) value);
    }
    if (value instanceof Class) {
      return ((Class<?>) value).getName();
    }
    if (value instanceof Predicate) {
      return value.getClass().getName();
    }
    if (value instanceof List) {
      return ((List<?>) value).stream().map(SharedInstances::describe).collect(Collectors.joining(", ", "{", "}"));
    }
    if (value instanceof String) {
      return "\"" + value + "\"";
    }
    return String.valueOf(value);
  }

  /** @return the instance of that name, or null */
  T get(String name) {
    Shared<T> shared = byName.get(name);
    return shared == null ? null : shared.instance;
  }

  /** @return every instance by name */
  Map<String, T> all() {
    Map<String, T> copy = new LinkedHashMap<>();
    byName.forEach((name, shared) -> copy.put(name, shared.instance));
    return Collections.unmodifiableMap(copy);
  }
}
