package dev.brace.runtime.support;

import dev.brace.Criticality;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.Kind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What one call site declares: its name, each pattern with the attributes written there (and only
 * those: defaults come from the runtime), and what the site itself fixes at compile time — the
 * type its fallback method takes and the checked exceptions the method declares. A generated wrapper keeps one per method in a static field, so
 * it reads like the annotations; a {@code Stack} builds one from its parts. The registry lays
 * programmatic and external configuration over it when it resolves the call.
 *
 * <p>Immutable once built: the builders it holds are only read.
 */
public final class CallDefinition {
  private final String callName;
  private final String site;
  private final Map<Kind, ConfigBuilder<?>> patterns;
  private final boolean keysFromCaller;
  private final String fallbackMethod;
  private final Class<? extends Throwable> fallbackTakes;
  private final boolean notIdempotent;
  private final Criticality.Level criticality;
  private final Invoker invoker;
  private final SlotInvoker slotInvoker;
  private final FallbackInvoker fallback;
  private final KeysOf keys;
  private final int method;
  private final List<Class<? extends Throwable>> throwsTypes;
  private final Map<Class<? extends Throwable>, Function<String, ? extends Throwable>> faultFactories;
  private final ChaosConfig.Builder chaos;

  private CallDefinition(Builder builder) {
    this.callName = builder.callName;
    this.site = builder.site;
    this.keysFromCaller = builder.keysFromCaller;
    this.patterns = Collections.unmodifiableMap(new EnumMap<>(builder.patterns));
    this.fallbackMethod = builder.fallbackMethod;
    this.fallbackTakes = builder.fallbackTakes;
    this.notIdempotent = builder.notIdempotent;
    this.criticality = builder.criticality;
    this.invoker = builder.invoker;
    this.slotInvoker = builder.slotInvoker;
    this.fallback = builder.fallback;
    this.keys = builder.keys;
    this.method = builder.method;
    this.throwsTypes = builder.throwsTypes;
    this.faultFactories = Map.copyOf(builder.faultFactories);
    this.chaos = builder.chaos;
  }

  /**
   * @param callName {@code Interface.method}
   * @return a builder for an annotated method, with no pattern yet
   */
  public static Builder builder(String callName) {
    return new Builder(callName, callName, false);
  }

  /**
   * @param stackName the stack's name
   * @return a builder for a {@code Stack}, with no pattern yet
   */
  public static Builder forStack(String stackName) {
    // A stack's call is a Callable or a future's supplier: it may fail with any exception.
    return new Builder(stackName, "stack '" + stackName + "'", true).throwsTypes(Exception.class);
  }

  /** @return {@code Interface.method}, or the stack's name */
  public String callName() {
    return callName;
  }

  /** @return where the call is declared, for messages: {@code RecsClient.recommendations}, {@code stack 'recs'} */
  public String site() {
    return site;
  }

  /** @return the patterns of the call by kind, each as written at the site; iterated in call order */
  public Map<Kind, ConfigBuilder<?>> patterns() {
    return patterns;
  }

  /**
   * @param kind a kind
   * @return the pattern as written at the site, or null when the call does not use it
   */
  public ConfigBuilder<?> pattern(Kind kind) {
    return patterns.get(kind);
  }

  /**
   * @return whether the caller hands the key over with each call (a {@code Stack}), so that
   *     configuration may make its breaker or limiter keyed; a generated site computes its keys from
   *     a template fixed at compile time
   */
  public boolean keysFromCaller() {
    return keysFromCaller;
  }

  /** @return the fallback method's name, for messages, or null */
  public String fallbackMethod() {
    return fallbackMethod;
  }

  /** @return the failure type the fallback method's last parameter takes, or null when any failure fits */
  public Class<? extends Throwable> fallbackTakes() {
    return fallbackTakes;
  }

  /**
   * @return whether the site marked the call {@code @NotIdempotent}: its retry may retry only
   *     failures that prove the request was never sent, and it is never hedged, whatever
   *     configuration says
   */
  public boolean notIdempotent() {
    return notIdempotent;
  }

  /**
   * @return how much the call matters when its bulkhead is under pressure ({@code @Criticality});
   *     {@code DEFAULT} unless the site says otherwise
   */
  public Criticality.Level criticality() {
    return criticality;
  }

  /** @return calls the delegate's method with a call's arguments; null for a {@code Stack} until it names one */
  public Invoker invoker() {
    return invoker;
  }

  /**
   * @return the same, taking the arguments' slots as parameters; null when the definition was given
   *     an {@link Invoker} only (a {@code Stack}, a hand-written definition)
   */
  public SlotInvoker slotInvoker() {
    return slotInvoker;
  }

  /** @return calls the fallback method, or null when the call has none */
  public FallbackInvoker fallback() {
    return fallback;
  }

  /** @return computes the call's keys from its arguments, or null when nothing is keyed by them */
  public KeysOf keys() {
    return keys;
  }

  /** @return the method's number in its wrapper, which its invokers switch on */
  public int method() {
    return method;
  }

  /**
   * @return the exceptions the method declares it throws ({@code Exception} for a {@code Stack});
   *     an injected fault must be unchecked or one of these (or a subclass)
   */
  public List<Class<? extends Throwable>> throwsTypes() {
    return throwsTypes;
  }

  /**
   * @return for the declared exceptions generated code knows how to make, each one's {@code String}
   *     constructor: what fault injection makes them with, without reflection
   */
  public Map<Class<? extends Throwable>, Function<String, ? extends Throwable>> faultFactories() {
    return faultFactories;
  }

  /** @return the fault injection a {@code Stack} part sets under the stack's name, or null */
  public ChaosConfig.Builder chaos() {
    return chaos;
  }

  /** Collects the patterns of one call; each kind at most once. */
  public static final class Builder {
    private final String callName;
    private final String site;
    private final boolean keysFromCaller;
    private final Map<Kind, ConfigBuilder<?>> patterns = new EnumMap<>(Kind.class);
    private String fallbackMethod;
    private Class<? extends Throwable> fallbackTakes;
    private boolean notIdempotent;
    private Criticality.Level criticality = Criticality.Level.DEFAULT;
    private Invoker invoker;
    private SlotInvoker slotInvoker;
    private FallbackInvoker fallback;
    private KeysOf keys;
    private int method;
    private List<Class<? extends Throwable>> throwsTypes = List.of();
    private final Map<Class<? extends Throwable>, Function<String, ? extends Throwable>> faultFactories = new HashMap<>();
    private ChaosConfig.Builder chaos;

    private Builder(String callName, String site, boolean keysFromCaller) {
      this.callName = Objects.requireNonNull(callName, "callName");
      this.site = site;
      this.keysFromCaller = keysFromCaller;
    }

    /**
     * @param pattern a pattern as written at the site, e.g. {@code RetryConfig.builder("I.m").maxAttempts(5)}
     * @return this
     * @throws IllegalArgumentException when the call already has a pattern of that kind, or for a retry
     *     budget or a deadline
     */
    public Builder with(ConfigBuilder<?> pattern) {
      Objects.requireNonNull(pattern, "pattern");
      if (pattern.kind() == Kind.RETRYBUDGET) {
        throw new IllegalArgumentException("a retry budget is not a pattern of a call; name it in the retry's budget");
      }
      if (pattern.kind() == Kind.DEADLINE) {
        throw new IllegalArgumentException("a deadline is not a pattern of a call; every call has one, configured by its name");
      }
      if (pattern.kind() == Kind.CHAOS) {
        throw new IllegalArgumentException("fault injection is not a pattern of a call; give it with chaos(...)");
      }
      if (patterns.putIfAbsent(pattern.kind(), pattern) != null) {
        throw new IllegalArgumentException(
            callName + " has two of " + pattern.kind().description() + "; a call takes each pattern once");
      }
      return this;
    }

    /**
     * Declares what the fallback method can receive: configuration may not make it answer a failure
     * its parameter cannot take.
     *
     * @param method the fallback method's name
     * @param failureType the type of its last, failure-receiving parameter
     * @return this
     */
    public Builder fallbackTakes(String method, Class<? extends Throwable> failureType) {
      this.fallbackMethod = Objects.requireNonNull(method, "method");
      this.fallbackTakes = Objects.requireNonNull(failureType, "failureType");
      return this;
    }

    /**
     * Marks the call as one the dependency may act on twice if it is sent twice
     * ({@code @NotIdempotent}).
     *
     * @return this
     */
    public Builder notIdempotent() {
      this.notIdempotent = true;
      return this;
    }

    /**
     * Tags the call with a criticality, which its bulkhead admits by ({@code @Criticality}).
     *
     * @param level the call's criticality
     * @return this
     * @throws NullPointerException when {@code level} is null
     */
    public Builder criticality(Criticality.Level level) {
      this.criticality = Objects.requireNonNull(level, "level");
      return this;
    }

    /**
     * @param invoker calls the delegate's methods with a call's arguments
     * @param method this method's number, which the invokers switch on
     * @return this
     * @throws NullPointerException when {@code invoker} is null
     */
    public Builder invokes(Invoker invoker, int method) {
      this.invoker = Objects.requireNonNull(invoker, "invoker");
      this.slotInvoker = null;
      this.method = method;
      return this;
    }

    /**
     * As {@link #invokes(Invoker, int)}, with an invoker that takes the arguments' slots as
     * parameters: what generated wrappers give, so that a call that needs no frame reaches the
     * delegate straight from its own parameters.
     *
     * @param invoker calls the delegate's methods with a call's argument slots
     * @param method this method's number, which the invokers switch on
     * @return this
     * @throws NullPointerException when {@code invoker} is null
     */
    public Builder invokes(SlotInvoker invoker, int method) {
      SlotInvoker slots = Objects.requireNonNull(invoker, "invoker");
      this.slotInvoker = slots;
      this.invoker = (number, target, args) -> slots.invoke(number, target, args.a(), args.b(), args.c(), args.d(), args.x(), args.y());
      this.method = method;
      return this;
    }

    /**
     * @param fallback calls the fallback method with a call's arguments and the failure it answers
     * @return this
     * @throws NullPointerException when {@code fallback} is null
     */
    public Builder fallback(FallbackInvoker fallback) {
      this.fallback = Objects.requireNonNull(fallback, "fallback");
      return this;
    }

    /**
     * @param keys computes the call's keys from its arguments
     * @return this
     * @throws NullPointerException when {@code keys} is null
     */
    public Builder keys(KeysOf keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * @param types the exceptions the method declares it throws, erased ({@code throws IOException})
     * @return this
     * @throws NullPointerException when a type is null
     */
    @SafeVarargs
    public final Builder throwsTypes(Class<? extends Throwable>... types) {
      this.throwsTypes = List.of(types);
      return this;
    }

    /**
     * How to make an exception the method declares, for fault injection: generated code gives one
     * for each declared exception with a public {@code String} constructor, so injecting it needs
     * no reflection.
     *
     * @param type a declared exception
     * @param make its {@code String} constructor ({@code IOException::new})
     * @param <T> the exception
     * @return this
     * @throws NullPointerException when an argument is null
     */
    public <T extends Throwable> Builder faultFactory(Class<T> type, Function<String, T> make) {
      faultFactories.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(make, "make"));
      return this;
    }

    /**
     * @param settings fault injection written at the site (a {@code Stack} part), named after the
     *     call; the lowest layer, under programmatic, environment and system property settings
     * @return this
     * @throws IllegalArgumentException when it is named otherwise than the call
     */
    public Builder chaos(ChaosConfig.Builder settings) {
      if (!settings.name().equals(callName)) {
        throw new IllegalArgumentException("fault injection written at " + site + " is named after it: " + callName);
      }
      this.chaos = settings;
      return this;
    }

    /** @return the definition */
    public CallDefinition build() {
      return new CallDefinition(this);
    }
  }
}
