package dev.brace.runtime.internal.chaos;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The fault injection of one call: at each attempt, a draw decides whether the attempt is delayed
 * by the configured latency and whether it then fails with the configured fault instead of calling
 * the dependency ({@link #next()}). The one place that decision is made; the attempt pipeline
 * applies it to a synchronous attempt ({@link #intoSync}, a sleep inside the attempt's timeout) or an
 * asynchronous one ({@link #intoAsync}, a delay on the scheduler inside its armed deadline), and
 * the reactive driver asks {@link #next()} itself.
 *
 * <p>With a seed, the draws come from one {@link Random} of this call, so the same seed and
 * settings give the same sequence of delayed and failed attempts (taken in the order attempts
 * start); without one, from {@link ThreadLocalRandom}. Each injection is reported as a {@code
 * chaos.injected} event. Thread-safe.
 */
public final class FaultInjection {
  /** What one attempt gets. */
  public enum Injection {
    /** Nothing: the attempt calls the dependency as it would without fault injection. */
    NOTHING,
    /** The latency, then the dependency is called. */
    LATENCY,
    /** The fault, at once; the dependency is not called. */
    FAULT,
    /** The latency, then the fault; the dependency is not called. */
    LATENCY_THEN_FAULT;

    /** @return whether the attempt waits the latency first */
    public boolean delays() {
      return this == LATENCY || this == LATENCY_THEN_FAULT;
    }

    /** @return whether the attempt fails with the fault instead of calling the dependency */
    public boolean fails() {
      return this == FAULT || this == LATENCY_THEN_FAULT;
    }
  }

  private final ChaosConfig config;
  private final String callName;
  private final String nameKind;
  private final FaultType fault;
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;
  /** Injections, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final long latencyNanos;
  private final double faultRate;
  private final double latencyRate;
  /** Null without a seed: the thread's own generator is used. */
  private final Random seeded;
  private final String message;

  /**
   * @param config the settings, which inject something ({@link ChaosConfig#injects()})
   * @param callName the call it is injected into
   * @param nameKind what the settings' name names for this call: {@code call}, or the kind of the
   *     instance ({@code circuitbreaker}, …), for events and meters
   * @param fault the exception a fault throws, checked against the call's method
   * @param time the clock a synchronous latency sleeps on
   * @param scheduler where an asynchronous latency waits
   * @param events where injections are reported
   */
  public FaultInjection(ChaosConfig config, String callName, String nameKind, FaultType fault, TimeSource time,
      Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.nameKind = Objects.requireNonNull(nameKind, "nameKind");
    this.fault = Objects.requireNonNull(fault, "fault");
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.CHAOS, config.name());
    this.latencyNanos = config.latency().toNanos();
    this.faultRate = config.faultRate();
    this.latencyRate = latencyNanos > 0 ? config.latencyRate() : 0;
    this.seeded = config.seed().isPresent() ? new Random(config.seed().getAsLong()) : null;
    this.message = "injected by Brace's fault injection '" + config.name() + "' into " + callName
        + " (faultRate " + faultRate + "); the dependency was not called";
  }

  /** @return the settings it injects by */
  public ChaosConfig config() {
    return config;
  }

  /** @return the exception type a fault throws */
  public Class<? extends Throwable> faultType() {
    return fault.type();
  }

  /** @return the latency of a delayed attempt, in nanoseconds */
  public long latencyNanos() {
    return latencyNanos;
  }

  /**
   * Draws what the next attempt gets, and reports it. A rate of 0 or 1 draws nothing, so a seed's
   * sequence is spent only on the choices that are random.
   *
   * @return the attempt's injection; never null
   */
  public Injection next() {
    boolean delays = chance(latencyRate);
    boolean fails = chance(faultRate);
    InstanceMetrics bound = delays || fails ? metrics.get() : null;
    if (bound != null) {
      if (delays) {
        bound.injected(nameKind, false);
      }
      if (fails) {
        bound.injected(nameKind, true);
      }
    }
    if (delays && events.enabled(EventKind.CHAOS_INJECTED)) {
      events.emit(EventKind.CHAOS_INJECTED, config.name(), "call", callName, "kind", nameKind, "what", "latency",
          "latency_ms", config.latency().toMillis());
    }
    if (fails && events.enabled(EventKind.CHAOS_INJECTED)) {
      events.emit(EventKind.CHAOS_INJECTED, config.name(), "call", callName, "kind", nameKind, "what", "fault",
          "fault", fault.type().getName());
    }
    if (delays) {
      return fails ? Injection.LATENCY_THEN_FAULT : Injection.LATENCY;
    }
    return fails ? Injection.FAULT : Injection.NOTHING;
  }

  private boolean chance(double rate) {
    if (rate <= 0) {
      return false;
    }
    if (rate >= 1) {
      return true;
    }
    return (seeded != null ? seeded.nextDouble() : ThreadLocalRandom.current().nextDouble()) < rate;
  }

  /** @return a new exception of the configured type, whose message says it was injected */
  public Throwable fault() {
    return fault.make(message);
  }

  /**
   * @param attempt one synchronous attempt, about to run under the call's timeout
   * @return the attempt itself when nothing is injected into it; else one that first sleeps the
   *     latency on the registry's clock and then fails, or calls the delegate
   */
  public DelegateCall intoSync(DelegateCall attempt) {
    Injection injection = next();
    return injection == Injection.NOTHING ? attempt : new InjectedAttempt(this, injection, time, attempt);
  }

  /**
   * Calls an admitted asynchronous attempt, its deadline armed: an injected fault is a failed
   * future; an injected latency a task on the scheduler that calls the delegate (or fails) when it
   * passes, cancelled with the returned future.
   *
   * @param attempt the delegate call; copied before it is deferred, so the caller may reuse it
   * @return the delegate's future, or one that stands for it
   * @throws Throwable what the delegate threw when it was called at once
   */
  public Object intoAsync(DelegateCall attempt) throws Throwable {
    Injection injection = next();
    if (injection == Injection.NOTHING) {
      return attempt.call();
    }
    if (!injection.delays()) {
      return CompletableFuture.failedFuture(fault());
    }
    return DelayedCall.start(scheduler.get(), latencyNanos, injection.fails() ? null : attempt.detached(), this);
  }
}
