package dev.brace.runtime;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a {@link Registry} runs with, and why: every instance it has created with each effective
 * setting and the layer that set it, and every call with its patterns in the order they run. A
 * snapshot, immutable; {@link #toString()} prints it as a table, the accessors give the same data
 * to tools (an actuator endpoint, a test).
 *
 * <pre>{@code
 * System.out.println(registry.describe());
 * Description.Instance breaker = registry.describe(Kind.CIRCUITBREAKER, "recs-api");
 * }</pre>
 */
public final class Description {
  private final boolean enabled;
  private final List<Instance> instances;
  private final List<Call> calls;

  /**
   * @param enabled false when configuration switched Brace off ({@code BRACE_ENABLED=false})
   * @param instances every instance, in any order
   * @param calls every call, in any order
   * @throws NullPointerException when a list is null
   */
  public Description(boolean enabled, List<Instance> instances, List<Call> calls) {
    this.enabled = enabled;
    this.instances = sorted(instances, Comparator.comparing(Instance::kind).thenComparing(Instance::name));
    this.calls = sorted(calls, Comparator.comparing(Call::name));
  }

  private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
    List<T> copy = new ArrayList<>(items);
    copy.sort(order);
    return List.copyOf(copy);
  }

  /** @return false when configuration switched Brace off, so every call passes straight through */
  public boolean enabled() {
    return enabled;
  }

  /** @return every instance the registry has created, in {@link Kind} order, then by name */
  public List<Instance> instances() {
    return instances;
  }

  /**
   * @return the fault injections active now, by name ({@code kind() == Kind.CHAOS}), each with the
   *     call sites it fails and delays; empty unless fault injection is switched on and injecting
   */
  public List<Instance> injections() {
    return instances.stream().filter(instance -> instance.kind() == Kind.CHAOS).collect(Collectors.toUnmodifiableList());
  }

  /** @return every call whose wrapper or stack the registry has resolved, by name */
  public List<Call> calls() {
    return calls;
  }

  /**
   * @param kind the instance's kind
   * @param name its name
   * @return the instance, if the registry has created it
   * @throws NullPointerException when an argument is null
   */
  public Optional<Instance> instance(Kind kind, String name) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    return instances.stream().filter(instance -> instance.kind() == kind && instance.name().equals(name)).findFirst();
  }

  /**
   * @param callName a call's name ({@code Interface.method}, or a stack's name)
   * @return the part of this description about that call: the call and the instances it uses;
   *     empty when the registry has resolved no call of that name
   * @throws NullPointerException when {@code callName} is null
   */
  public Optional<Description> call(String callName) {
    Objects.requireNonNull(callName, "callName");
    return calls.stream().filter(call -> call.name().equals(callName)).findFirst().map(call -> {
      List<Instance> used = new ArrayList<>();
      for (Pattern pattern : call.patterns()) {
        instance(pattern.kind(), pattern.instance()).ifPresent(used::add);
      }
      for (Instance instance : instances) {
        if ((instance.kind() == Kind.RETRYBUDGET || instance.kind() == Kind.CHAOS) && instance.sites().contains(call.site())) {
          used.add(instance);
        }
      }
      return new Description(enabled, used, List.of(call));
    });
  }

  /**
   * @return a table: the calls, each with its patterns outermost first, then every instance's
   *     settings with the layer that set each one
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    text.append("Brace registry: ").append(calls.size()).append(calls.size() == 1 ? " call, " : " calls, ")
        .append(instances.size()).append(instances.size() == 1 ? " instance" : " instances");
    if (!enabled) {
      text.append(" (switched off: every call passes straight through)");
    }
    long injecting = instances.stream().filter(instance -> instance.kind() == Kind.CHAOS).count();
    if (injecting > 0) {
      text.append(" (fault injection active: ").append(injecting).append(injecting == 1 ? " name)" : " names)");
    }
    text.append('\n');
    if (!calls.isEmpty()) {
      int width = calls.stream().mapToInt(call -> call.name().length()).max().orElse(0);
      text.append("calls, patterns outermost first:\n");
      for (Call call : calls) {
        text.append("  ").append(pad(call.name(), width)).append("  ").append(call.describePatterns())
            .append(call.notIdempotent() ? "  (not idempotent)" : "").append('\n');
      }
    }
    if (!instances.isEmpty()) {
      List<String[]> rows = new ArrayList<>();
      rows.add(new String[] {"instance", "setting", "value", "set by"});
      for (Instance instance : instances) {
        String title = instance.kind().key() + " " + instance.name();
        for (Setting setting : instance.settings()) {
          rows.add(new String[] {title, setting.attribute(), setting.value(), setting.source().toString()});
          title = "";
        }
      }
      int[] widths = new int[3];
      for (String[] row : rows) {
        for (int column = 0; column < widths.length; column++) {
          widths[column] = Math.max(widths[column], row[column].length());
        }
      }
      for (String[] row : rows) {
        text.append("  ");
        for (int column = 0; column < widths.length; column++) {
          text.append(pad(row[column], widths[column])).append("  ");
        }
        text.append(row[3]).append('\n');
      }
    }
    return text.toString();
  }

  private static String pad(String text, int width) {
    StringBuilder padded = new StringBuilder(text);
    while (padded.length() < width) {
      padded.append(' ');
    }
    return padded.toString();
  }

  /**
   * One instance: a breaker, limiter, bulkhead or budget shared by name, or a call's own retry,
   * timeout or fallback.
   *
   * @param kind its kind
   * @param name its name ({@code recs-api}, {@code RecsClient.recommendations})
   * @param settings every effective setting, in the annotation's order
   * @param sites every call site that uses it ({@code RecsClient.recommendations}, {@code stack
   *     'quotes'}), sorted
   */
  public record Instance(Kind kind, String name, List<Setting> settings, List<String> sites) {
    /**
     * @param kind its kind
     * @param name its name
     * @param settings every effective setting
     * @param sites every call site that uses it
     * @throws NullPointerException when a component is null
     */
    public Instance {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
      settings = List.copyOf(settings);
      sites = List.copyOf(sites);
    }

    /**
     * @param attribute a setting's name, as the config builder's setter names it
     * @return that setting, if the instance has it
     */
    public Optional<Setting> setting(String attribute) {
      return settings.stream().filter(setting -> setting.attribute().equals(attribute)).findFirst();
    }

    /** @return this instance alone as the rows of a {@link Description} table */
    @Override
    public String toString() {
      return new Description(true, List.of(this), List.of()).toString().replaceFirst("^[^\n]*\n", "");
    }
  }

  /**
   * One effective setting of an instance.
   *
   * @param attribute the setting's name as the config builder's setter names it ({@code
   *     maxAttempts}; the timeout's value is {@code duration})
   * @param value the value as configuration would write it ({@code 3}, {@code 100ms}, {@code
   *     {java.io.IOException}}, {@code "recs-api"}, {@code none})
   * @param source the layer that set it
   */
  public record Setting(String attribute, String value, Source source) {
    /**
     * @param attribute the setting's name
     * @param value its value as text
     * @param source the layer that set it
     * @throws NullPointerException when a component is null
     */
    public Setting {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(source, "source");
    }
  }

  /**
   * Where a setting came from: the highest layer that set it.
   *
   * @param layer the layer
   * @param origin where in that layer: the call site for an annotation on a method (or a {@code
   *     Stack}'s part), the interface for an annotation on the interface, the variable for the
   *     environment, the key for a system property; empty for a programmatic setting and a default
   * @param onType for an annotation, whether it is written on the interface (the default of its
   *     methods) rather than on the method
   * @param from for a variable or property, where the application's configuration got it when the
   *     registry was told ({@link Registry.Builder#keyOrigins}): a Spring Boot application's
   *     property source ({@code class path resource [application.yml] - 3:26}); else empty
   */
  public record Source(Layer layer, String origin, boolean onType, String from) {
    /** A setting no layer set: the annotation's default. */
    public static final Source DEFAULT = new Source(Layer.DEFAULT, "");
    /** A setting from {@code Registry.builder()}. */
    public static final Source PROGRAMMATIC = new Source(Layer.PROGRAMMATIC, "");

    /**
     * @param layer the layer
     * @param origin where in that layer, or empty
     * @param onType whether an annotation is written on the interface
     * @param from where the application's configuration got a variable or property, or empty
     * @throws NullPointerException when a component is null
     */
    public Source {
      Objects.requireNonNull(layer, "layer");
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(from, "from");
    }

    /**
     * A source with no more to say than its layer and where in it.
     *
     * @param layer the layer
     * @param origin where in that layer, or empty
     * @throws NullPointerException when a component is null
     */
    public Source(Layer layer, String origin) {
      this(layer, origin, false, "");
    }

    /**
     * @return e.g. {@code annotation at RecsClient.recommendations}, {@code annotation on
     *     RecsClient}, {@code environment BRACE_…}, {@code property brace.… from class path resource
     *     [application.yml] - 3:26}, {@code default}
     */
    @Override
    public String toString() {
      if (origin.isEmpty()) {
        return layer.toString();
      }
      if (layer == Layer.ANNOTATION) {
        return layer + (onType ? " on " : " at ") + origin;
      }
      if (!from.isEmpty()) {
        // Not a JVM system property then, whatever the layer is called: say what the application wrote.
        return (layer == Layer.SYSTEM_PROPERTY ? "property" : layer.toString()) + " " + origin + " from " + from;
      }
      return layer + " " + origin;
    }
  }

  /** The layers of configuration, lowest first; a higher one replaces what a lower one set. */
  public enum Layer {
    /** No layer set it: the annotation's default. */
    DEFAULT,
    /** Written at the call site: an annotation attribute, or a {@code Stack} part's setter. */
    ANNOTATION,
    /** {@code Registry.builder()}. */
    PROGRAMMATIC,
    /** A {@code BRACE_…} environment variable. */
    ENVIRONMENT,
    /** A {@code brace.…} system property. */
    SYSTEM_PROPERTY;

    /** @return the layer in words: {@code default}, {@code annotation}, …, {@code system property} */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  /**
   * One call: a method of a generated wrapper, or a {@code Stack}.
   *
   * @param name the call name ({@code RecsClient.recommendations}, a stack's name): its retry,
   *     timeout and fallback are configured under it
   * @param site where it is declared ({@code RecsClient.recommendations}, {@code stack 'quotes'})
   * @param notIdempotent whether the site marked it {@code @NotIdempotent}: retried only on failures
   *     that prove the request was never sent, never hedged
   * @param patterns its patterns, outermost first
   */
  public record Call(String name, String site, boolean notIdempotent, List<Pattern> patterns) {
    /**
     * @param name the call name
     * @param site where it is declared
     * @param notIdempotent whether it is marked not idempotent
     * @param patterns its patterns, outermost first
     * @throws NullPointerException when a component is null
     */
    public Call {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(site, "site");
      patterns = List.copyOf(patterns);
    }

    /** @return {@code fallback → retry → circuitbreaker recs-api → …}, a pattern switched off marked so */
    String describePatterns() {
      return patterns.isEmpty()
          ? "(no pattern)"
          : patterns.stream().map(pattern -> pattern.toString(name)).collect(Collectors.joining(" → "));
    }
  }

  /**
   * One pattern of a call.
   *
   * @param kind the pattern
   * @param instance the instance it uses: a shared name, or the call name for a call's own
   * @param enabled false when configuration switched the instance (or Brace) off for this call
   */
  public record Pattern(Kind kind, String instance, boolean enabled) {
    /**
     * @param kind the pattern
     * @param instance the instance it uses
     * @param enabled false when configuration switched it off
     * @throws NullPointerException when a component is null
     */
    public Pattern {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(instance, "instance");
    }

    private String toString(String callName) {
      String text = instance.equals(callName) ? kind.key() : kind.key() + " " + instance;
      return enabled ? text : text + " (off)";
    }
  }
}
