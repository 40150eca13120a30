package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ConfigValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The instances of one kind that are shared by name (breakers, limiters, bulkheads, retry
 * budgets): the first site that uses a name creates its instance from its settings, every later
 * site gets the same instance. Two sites conflict only when their effective settings differ —
 * whatever each wrote, defaults and outer layers applied — whichever came first.
 *
 * <p>A reconfiguration is planned first ({@link #plan}: every instance's new settings, checked,
 * and the instances it must create) and committed only when the whole plan is valid, so a refused
 * one changes nothing.
 *
 * @param <T> the instance type
 */
final class SharedInstances<T> {
  /**
   * Attributes that decide what an instance is, not how it behaves: they cannot change while it
   * lives. {@code adaptive} picks the implementation of a limiter or bulkhead (fixed, or which
   * algorithm learns the limit), so switching it is a new instance, not new settings.
   */
  private static final List<String> FIXED = List.of("backend", "key", "adaptive");

  private final Kind kind;
  private final Reshaper<T> reshaper;
  private final ConcurrentHashMap<String, Shared<T>> byName = new ConcurrentHashMap<>();

  /**
   * @param kind the kind of every instance here
   * @param reshaper how an instance takes new settings in place
   */
  SharedInstances(Kind kind, Reshaper<T> reshaper) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.reshaper = Objects.requireNonNull(reshaper, "reshaper");
  }

  /** How an instance of one kind takes new settings while calls run through it, keeping its state. */
  interface Reshaper<T> {
    /**
     * @param instance a live instance
     * @param settings its new settings
     * @return why it cannot take them, or null when it can
     */
    String refusal(T instance, InstanceConfig settings);

    /**
     * @param instance a live instance
     * @param settings its new settings, accepted by {@link #refusal}
     */
    void apply(T instance, InstanceConfig settings);
  }

  /**
   * @param apply gives an instance new settings; every instance of the kind can take them
   * @param <T> the instance type
   * @return a reshaper that never refuses
   */
  static <T> Reshaper<T> reshaper(java.util.function.BiConsumer<T, InstanceConfig> apply) {
    return new Reshaper<T>() {
      @Override
      public String refusal(T instance, InstanceConfig settings) {
        return null;
      }

      @Override
      public void apply(T instance, InstanceConfig settings) {
        apply.accept(instance, settings);
      }
    };
  }

  /** An instance with the settings it runs on, and the site (and what it wrote) it was created from. */
  static final class Shared<T> {
    final ConfigBuilder<?> written;
    final InstanceConfig config;
    final String site;
    final T instance;

    Shared(ConfigBuilder<?> written, InstanceConfig config, String site, T instance) {
      this.written = written;
      this.config = config;
      this.site = site;
      this.instance = instance;
    }
  }

  /**
   * @param written the pattern as the creating site wrote it, re-read on every reconfiguration
   * @param config the site's effective settings of the instance
   * @param site where it is used, for messages
   * @param create makes the instance on first use
   * @param created told once, after the instance is made
   * @return the shared instance of that name
   * @throws ConfigurationException when an earlier site created it with other effective settings
   */
  T obtain(ConfigBuilder<?> written, InstanceConfig config, String site, Function<InstanceConfig, T> create, Runnable created) {
    boolean[] made = {false};
    Shared<T> shared = byName.computeIfAbsent(config.name(), name -> {
      made[0] = true;
      return new Shared<>(written, config, site, create.apply(config));
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
      if (!ConfigValues.comparable(earlier).equals(ConfigValues.comparable(value.getValue()))) {
        throw new ConfigurationException(Message.NAME_CONFLICT.format(
            kind.description(), config.name(), value.getKey(), ConfigValues.describe(earlier), first.site,
            ConfigValues.describe(value.getValue()), site));
      }
    }
  }

  /**
   * Plans new settings for every instance: {@code settings} gives an instance's new config (null
   * leaves it as it is, for one switched off), and every refusal is added to {@code problems}.
   *
   * @param settings re-resolves what a creating site wrote under the new configuration; may throw
   *     {@link ConfigurationException}
   * @param problems collects one line per refused setting
   * @return the plan, to resolve calls against and then commit
   */
  Plan plan(Function<ConfigBuilder<?>, InstanceConfig> settings, List<String> problems) {
    Plan plan = new Plan();
    byName.forEach((name, shared) -> {
      InstanceConfig next;
      try {
        next = settings.apply(shared.written);
      } catch (ConfigurationException refused) {
        problems.add(refused.getMessage());
        return;
      }
      if (next == null) {
        return;
      }
      String refusal = fixedChanged(shared.config, next);
      if (refusal == null && !sameValues(shared.config, next)) {
        refusal = reshaper.refusal(shared.instance, next);
      }
      if (refusal != null) {
        problems.add(Message.NOT_LIVE.format(kind.description(), name, refusal));
        return;
      }
      plan.next.put(name, new Shared<>(shared.written, next, shared.site, shared.instance));
    });
    return plan;
  }

  private static String fixedChanged(InstanceConfig from, InstanceConfig to) {
    for (String attribute : FIXED) {
      Object before = from.values().get(attribute);
      Object after = to.values().get(attribute);
      if (!Objects.equals(before, after)) {
        return attribute + " cannot change from " + ConfigValues.describe(before) + " to "
            + ConfigValues.describe(after) + " while the instance lives; it applies to a registry built with it";
      }
    }
    return null;
  }

  private static boolean sameValues(InstanceConfig a, InstanceConfig b) {
    for (Map.Entry<String, Object> value : a.values().entrySet()) {
      if (!ConfigValues.comparable(value.getValue()).equals(ConfigValues.comparable(b.values().get(value.getKey())))) {
        return false;
      }
    }
    return true;
  }

  /** The instances of this kind as a planned reconfiguration leaves them; nothing changes before {@link #commit}. */
  final class Plan {
    private final Map<String, Shared<T>> next = new LinkedHashMap<>();
    private final Map<String, Shared<T>> created = new LinkedHashMap<>();

    private Plan() {}

    /**
     * As {@link SharedInstances#obtain}, against the planned settings: an instance that does not
     * exist yet is made now but joins the registry only on {@link #commit}.
     *
     * @throws ConfigurationException when the site's settings differ from the instance's planned ones
     */
    T obtain(ConfigBuilder<?> written, InstanceConfig config, String site, Function<InstanceConfig, T> create) {
      Shared<T> planned = next.get(config.name());
      if (planned == null) {
        planned = created.get(config.name());
      }
      if (planned == null) {
        planned = byName.get(config.name());
      }
      if (planned == null) {
        planned = new Shared<>(written, config, site, create.apply(config));
        created.put(config.name(), planned);
      } else {
        checkSame(planned, config, site);
      }
      return planned.instance;
    }

    /** @return per name, the settings before and after, for every instance whose settings change */
    Map<String, InstanceConfig[]> changes() {
      Map<String, InstanceConfig[]> changes = new LinkedHashMap<>();
      next.forEach((name, planned) -> {
        InstanceConfig before = byName.get(name).config;
        if (!sameValues(before, planned.config)) {
          changes.put(name, new InstanceConfig[] {before, planned.config});
        }
      });
      return changes;
    }

    /**
     * Applies the plan: each changed instance takes its new settings in place, and the instances
     * made while planning join the registry.
     *
     * @param announce told of each instance made, after it joined
     */
    void commit(Consumer<InstanceConfig> announce) {
      changes().forEach((name, change) -> reshaper.apply(next.get(name).instance, change[1]));
      byName.putAll(next);
      created.forEach((name, shared) -> {
        byName.put(name, shared);
        announce.accept(shared.config);
      });
    }
  }

  /** @return the instance of that name, or null */
  T get(String name) {
    Shared<T> shared = byName.get(name);
    return shared == null ? null : shared.instance;
  }

  /** @return the settings the instance of that name runs on, or null */
  InstanceConfig config(String name) {
    Shared<T> shared = byName.get(name);
    return shared == null ? null : shared.config;
  }

  /** @return every instance by name */
  Map<String, T> all() {
    Map<String, T> copy = new LinkedHashMap<>();
    byName.forEach((name, shared) -> copy.put(name, shared.instance));
    return Collections.unmodifiableMap(copy);
  }
}
