package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ConfigValues;
import dev.brace.runtime.internal.config.ExplainedConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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

  /**
   * An instance with the settings it runs on and where each came from, the site (and what it
   * wrote) it was created from, and every site that uses it.
   */
  static final class Shared<T> {
    final ConfigBuilder<?> written;
    final InstanceConfig config;
    final ExplainedConfig explained;
    final String site;
    final Set<String> sites = ConcurrentHashMap.newKeySet();
    final T instance;

    Shared(ConfigBuilder<?> written, ExplainedConfig explained, String site, T instance) {
      this.written = written;
      this.config = explained.config();
      this.explained = explained;
      this.site = site;
      this.instance = instance;
    }
  }

  /**
   * @param written the pattern as the creating site wrote it, re-read on every reconfiguration
   * @param explained the site's effective settings of the instance, with where each came from
   * @param site where it is used, for messages
   * @param create makes the instance on first use
   * @param created told once, after the instance is made
   * @return the shared instance of that name
   * @throws ConfigurationException when an earlier site created it with other effective settings
   */
  T obtain(ConfigBuilder<?> written, ExplainedConfig explained, String site, Function<InstanceConfig, T> create, Runnable created) {
    InstanceConfig config = explained.config();
    boolean[] made = {false};
    Shared<T> shared = byName.computeIfAbsent(config.name(), name -> {
      made[0] = true;
      return new Shared<>(written, explained, site, create.apply(config));
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
      if (!ConfigValues.comparable(earlier).equals(ConfigValues.comparable(value.getValue()))) {
        throw new ConfigurationException(Message.NAME_CONFLICT.format(
            kind.description(), config.name(), value.getKey(), ConfigValues.describe(earlier), first.site,
            ConfigValues.describe(value.getValue()), site));
      }
    }
  }

  /**
   * Plans new settings for every instance: {@code settings} gives an instance's new config with
   * where each value now comes from (null leaves it as it is, for one switched off), and every
   * refusal is added to {@code problems}.
   *
   * @param settings re-resolves what a creating site wrote (and the site) under the new
   *     configuration; may throw {@link ConfigurationException}
   * @param problems collects one line per refused setting
   * @return the plan, to resolve calls against and then commit
   */
  Plan plan(java.util.function.BiFunction<ConfigBuilder<?>, String, ExplainedConfig> settings, List<String> problems) {
    Plan plan = new Plan();
    byName.forEach((name, shared) -> {
      ExplainedConfig explained;
      try {
        explained = settings.apply(shared.written, shared.site);
      } catch (ConfigurationException refused) {
        problems.add(refused.getMessage());
        plan.refused.add(name);
        return;
      }
      if (explained == null) {
        return;
      }
      InstanceConfig next = explained.config();
      String refusal = fixedChanged(shared.config, next);
      if (refusal == null && !sameValues(shared.config, next)) {
        refusal = reshaper.refusal(shared.instance, next);
      }
      if (refusal != null) {
        problems.add(Message.NOT_LIVE.format(kind.description(), name, refusal));
        plan.refused.add(name);
        return;
      }
      Shared<T> planned = new Shared<>(shared.written, explained, shared.site, shared.instance);
      planned.sites.addAll(shared.sites);
      plan.next.put(name, planned);
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
    /** Instances whose new settings were refused, already listed: the sites that use them are not blamed again. */
    private final Set<String> refused = new java.util.HashSet<>();

    private Plan() {}

    /**
     * As {@link SharedInstances#obtain}, against the planned settings: an instance that does not
     * exist yet is made now but joins the registry only on {@link #commit}.
     *
     * @throws ConfigurationException when the site's settings differ from the instance's planned ones
     */
    T obtain(ConfigBuilder<?> written, ExplainedConfig explained, String site, Function<InstanceConfig, T> create) {
      InstanceConfig config = explained.config();
      Shared<T> planned = next.get(config.name());
      if (planned == null) {
        planned = created.get(config.name());
      }
      if (planned != null) {
        checkSame(planned, config, site);
        planned.sites.add(site);
        return planned.instance;
      }
      // An instance the plan leaves as it is (switched off) is live: it is not touched before commit.
      Shared<T> live = byName.get(config.name());
      if (live != null) {
        if (!refused.contains(config.name())) {
          checkSame(live, config, site);
        }
        return live.instance;
      }
      planned = new Shared<>(written, explained, site, create.apply(config));
      planned.sites.add(site);
      created.put(config.name(), planned);
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

  /** @return every instance's description: its settings as it runs on them now, with their sources, and the sites that use it */
  List<Description.Instance> describe() {
    List<Description.Instance> described = new ArrayList<>();
    byName.values().forEach(shared -> described.add(shared.explained.describe(new ArrayList<>(new TreeSet<>(shared.sites)))));
    return described;
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
