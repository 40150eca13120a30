package dev.brace.runtime.config;

import dev.brace.CircuitBreaker;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.List;
import java.util.function.Predicate;

/** The settings of one circuit breaker: the attributes of {@link CircuitBreaker}, checked. Immutable. */
public final class CircuitBreakerConfig extends InstanceConfig {
  /** More buckets than this buys no precision and costs memory per breaker. */
  public static final int MAX_WINDOW_BUCKETS = 1000;

  private final int failureThreshold;
  private final int successThreshold;
  private final Duration resetTimeout;
  private final double failureRate;
  private final Duration window;
  private final int windowCalls;
  private final int minimumCalls;
  private final int windowBuckets;
  private final List<Class<? extends Throwable>> on;
  private final List<Class<? extends Throwable>> ignore;
  private final Predicate<Object> onResult;
  private final String key;
  private final int maxKeys;
  private final String backend;
  private final Duration slowCall;
  private final double slowCallRate;

  private CircuitBreakerConfig(Builder builder) {
    super(builder);
    this.failureThreshold = builder.get("failureThreshold");
    this.successThreshold = builder.get("successThreshold");
    this.resetTimeout = builder.get("resetTimeout");
    this.failureRate = builder.get("failureRate");
    this.window = builder.get("window");
    this.windowCalls = builder.get("windowCalls");
    this.minimumCalls = builder.get("minimumCalls");
    this.windowBuckets = builder.get("windowBuckets");
    this.on = builder.get("on");
    this.ignore = builder.get("ignore");
    this.onResult = builder.get("onResult");
    this.key = builder.get("key");
    this.maxKeys = builder.get("maxKeys");
    this.backend = builder.get(ConfigBuilder.BACKEND);
    this.slowCall = builder.get("slowCall");
    this.slowCallRate = builder.get("slowCallRate");
    if (windowed() && windowCalls > 0 && windowCalls < minimumCalls) {
      // A count window never holds more than windowCalls outcomes, so the rate would never be judged.
      throw builder.invalid(
          "windowCalls", windowCalls,
          "at least minimumCalls (" + minimumCalls + "), or 0 for a time window: a window of the last "
              + windowCalls + " calls never reaches " + minimumCalls + " outcomes, so the circuit could never open");
    }
    if (windowCalls == 0 && window.toNanos() < windowBuckets) {
      throw builder.invalid(
          "windowBuckets", windowBuckets, "at most one bucket per nanosecond of window");
    }
  }

  /**
   * @param name the breaker's name
   * @return a builder with every attribute at its annotation default
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * @param otherName the name of the copy (a keyed member's {@code name[key]})
   * @return a builder holding exactly the values this config was built from, under another name
   */
  public Builder toBuilder(String otherName) {
    return builder(otherName).putAll(explicitValues());
  }


  /** @return consecutive failures that open the circuit in classic mode */
  public int failureThreshold() {
    return failureThreshold;
  }

  /** @return consecutive probe successes that close it */
  public int successThreshold() {
    return successThreshold;
  }

  /** @return how long it stays open */
  public Duration resetTimeout() {
    return resetTimeout;
  }

  /** @return the failure rate that opens it in rate mode; 0 in classic mode */
  public double failureRate() {
    return failureRate;
  }

  /** @return true when {@link #failureRate()} is set */
  public boolean rateMode() {
    return failureRate > 0;
  }

  /** @return how long an attempt may take before it counts as slow; zero when latency is not judged */
  public Duration slowCall() {
    return slowCall;
  }

  /** @return the share of slow outcomes that opens it, when {@link #judgesSlowCalls()} */
  public double slowCallRate() {
    return slowCallRate;
  }

  /** @return true when {@link #slowCall()} is set: every attempt is timed */
  public boolean judgesSlowCalls() {
    return !slowCall.isZero();
  }

  /** @return whether outcomes go into a rolling window: in rate mode, or when slow calls are judged */
  public boolean windowed() {
    return rateMode() || judgesSlowCalls();
  }

  /** @return the time span of the rate window */
  public Duration window() {
    return window;
  }

  /** @return when above 0, the window is the last N outcomes */
  public int windowCalls() {
    return windowCalls;
  }

  /** @return the outcomes needed before the rate is judged */
  public int minimumCalls() {
    return minimumCalls;
  }

  /** @return the counters the time window is split into */
  public int windowBuckets() {
    return windowBuckets;
  }

  /** @return the exceptions counted as failures */
  public List<Class<? extends Throwable>> on() {
    return on;
  }

  /** @return the exceptions never counted */
  public List<Class<? extends Throwable>> ignore() {
    return ignore;
  }

  /** @return the result predicate (true = failure), or {@code null} */
  public Predicate<Object> onResult() {
    return onResult;
  }

  /** @return the key template, or empty */
  public String key() {
    return key;
  }

  /** @return the most keys kept */
  public int maxKeys() {
    return maxKeys;
  }

  /** @return the name of the backend that keeps the state; {@code "local"} for this JVM */
  public String backend() {
    return backend;
  }

  /** Builds a {@link CircuitBreakerConfig}; one checked setter per attribute of {@link CircuitBreaker}. */
  public static final class Builder extends ConfigBuilder<Builder> {
    private static final Map<String, BiConsumer<Builder, String>> TEXT_SETTERS =
        new TextSetters<Builder>()
            .add("failureThreshold", (b, t) -> b.failureThreshold(b.integer("failureThreshold", t)))
            .add("successThreshold", (b, t) -> b.successThreshold(b.integer("successThreshold", t)))
            .add("resetTimeout", Builder::resetTimeout)
            .add("failureRate", (b, t) -> b.failureRate(b.decimal("failureRate", t)))
            .add("window", Builder::window)
            .add("windowCalls", (b, t) -> b.windowCalls(b.integer("windowCalls", t)))
            .add("minimumCalls", (b, t) -> b.minimumCalls(b.integer("minimumCalls", t)))
            .add("windowBuckets", (b, t) -> b.windowBuckets(b.integer("windowBuckets", t)))
            .add("maxKeys", (b, t) -> b.maxKeys(b.integer("maxKeys", t)))
            .add(BACKEND, Builder::backend)
            .add("slowCall", Builder::slowCall)
            .add("slowCallRate", (b, t) -> b.slowCallRate(b.decimal("slowCallRate", t)))
            .build();

    @Override
    Map<String, BiConsumer<Builder, String>> textSetters() {
      return TEXT_SETTERS;
    }

    Builder(String name) {
      super(Kind.CIRCUITBREAKER, name, CircuitBreaker.class);
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder failureThreshold(int value) {
      return put("failureThreshold", atLeast("failureThreshold", value, 1));
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder successThreshold(int value) {
      return put("successThreshold", atLeast("successThreshold", value, 1));
    }

    /**
     * @param value a positive duration string
     * @return this
     */
    public Builder resetTimeout(String value) {
      return put("resetTimeout", duration("resetTimeout", value, true));
    }

    /**
     * @param value a positive duration
     * @return this
     */
    public Builder resetTimeout(Duration value) {
      return put("resetTimeout", duration("resetTimeout", value, true));
    }

    /**
     * @param value 0 for classic mode, else in (0, 1]
     * @return this
     */
    public Builder failureRate(double value) {
      if (Double.isNaN(value) || value < 0 || value > 1) {
        throw invalid("failureRate", value, "a number in (0, 1], or 0 for classic mode");
      }
      return put("failureRate", value);
    }

    /**
     * @param value a positive duration string
     * @return this
     */
    public Builder window(String value) {
      return put("window", duration("window", value, true));
    }

    /**
     * @param value a positive duration
     * @return this
     */
    public Builder window(Duration value) {
      return put("window", duration("window", value, true));
    }

    /**
     * @param value 0 for a time window, else the last N outcomes
     * @return this
     */
    public Builder windowCalls(int value) {
      return put("windowCalls", atLeast("windowCalls", value, 0));
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder minimumCalls(int value) {
      return put("minimumCalls", atLeast("minimumCalls", value, 1));
    }

    /**
     * @param value from 1 to {@value #MAX_WINDOW_BUCKETS}
     * @return this
     */
    public Builder windowBuckets(int value) {
      if (value < 1 || value > MAX_WINDOW_BUCKETS) {
        throw invalid("windowBuckets", value, "an integer from 1 to " + MAX_WINDOW_BUCKETS);
      }
      return put("windowBuckets", value);
    }

    /**
     * @param types the exceptions counted
     * @return this
     */
    @SafeVarargs
    public final Builder on(Class<? extends Throwable>... types) {
      return put("on", classes(types));
    }

    /**
     * @param types the exceptions never counted
     * @return this
     */
    @SafeVarargs
    public final Builder ignore(Class<? extends Throwable>... types) {
      return put("ignore", classes(types));
    }

    /**
     * @param predicate true counts the result as a failure; {@code null} for none
     * @return this
     */
    @SuppressWarnings("unchecked")
    public Builder onResult(Predicate<?> predicate) {
      return put("onResult", (Predicate<Object>) predicate);
    }

    /**
     * @param value a key template, or empty
     * @return this
     */
    public Builder key(String value) {
      if (value == null) {
        throw invalid("key", null, "a key template, or \"\" for none");
      }
      return put("key", value);
    }

    /**
     * @param value at least 1
     * @return this
     */
    public Builder maxKeys(int value) {
      return put("maxKeys", atLeast("maxKeys", value, 1));
    }

    /**
     * @param value {@code "local"}, or the name of a backend given to {@code
     *     Registry.builder().backend(name, backend)}
     * @return this
     */
    public Builder backend(String value) {
      return checkedBackend(value);
    }


    /**
     * @param value a positive duration string, or empty to judge no latency
     * @return this
     */
    public Builder slowCall(String value) {
      return put("slowCall", durationOrNone("slowCall", value));
    }

    /**
     * @param value a positive duration, or {@code null} or zero to judge no latency
     * @return this
     */
    public Builder slowCall(Duration value) {
      return put("slowCall", value == null ? Duration.ZERO : duration("slowCall", value, false));
    }

    /**
     * @param value in (0, 1]
     * @return this
     */
    public Builder slowCallRate(double value) {
      if (Double.isNaN(value) || value <= 0 || value > 1) {
        throw invalid("slowCallRate", value, "a number in (0, 1]");
      }
      return put("slowCallRate", value);
    }

    /**
     * @return the checked, immutable config
     * @throws dev.brace.runtime.ConfigurationException when values contradict each other
     */
    @Override
    public CircuitBreakerConfig build() {
      return new CircuitBreakerConfig(this);
    }
  }
}
