package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.internal.policy.CircuitGeneration.Closed;
import dev.brace.runtime.internal.policy.CircuitGeneration.HalfOpen;
import dev.brace.runtime.internal.policy.CircuitGeneration.Open;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.CircuitEvents;
import dev.brace.runtime.spi.OutcomeClassifier;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The local circuit breaker: its state lives in this JVM. {@link #acquire()} admits a call or
 * refuses it, and the ticket it returns is completed by exactly one of {@link #onSuccess}, {@link
 * #onResult}, {@link #onFailure} or {@link #release} (which outcomes count is decided by {@link
 * CircuitBreakerInstance}, for every breaker). Thread-safe and lock-free.
 *
 * <p>The whole state is one immutable {@link CircuitGeneration} in an {@link AtomicReference}; every
 * transition is a compare-and-set from the generation it was decided on, so exactly one thread
 * makes it and only that thread emits its event. The ticket is the generation that admitted the
 * call: an outcome is applied only while its generation is still current, so a call admitted
 * before the circuit opened cannot close, re-open or count towards a later generation. While
 * CLOSED the ticket is the current generation itself, so admitting a call allocates nothing.
 */
public final class DefaultCircuitBreaker implements CircuitBreakerInstance {

  private final TimeSource time;
  private final EventBus eventBus;
  private volatile Settings settings;
  private final AtomicReference<CircuitGeneration> state;
  /** Held closed by hand: read only when an outcome would open the circuit. */
  private volatile boolean heldClosed;

  /** One version of the breaker's settings with what is built from them; replaced whole. */
  private static final class Settings {
    final CircuitBreakerConfig config;
    final CircuitEvents events;
    final OutcomeClassifier classifier;

    Settings(CircuitBreakerConfig config, EventBus events) {
      this.config = config;
      this.events = new CircuitEvents(events, config);
      this.classifier = new OutcomeClassifier(config);
    }
  }

  /**
   * @param config the breaker's settings
   * @param time where cooldowns and the rate window read time
   * @param events where state changes and refusals are reported
   * @throws NullPointerException when an argument is null
   */
  public DefaultCircuitBreaker(CircuitBreakerConfig config, TimeSource time, EventBus events) {
    this.time = Objects.requireNonNull(time, "time");
    this.eventBus = Objects.requireNonNull(events, "events");
    this.settings = new Settings(Objects.requireNonNull(config, "config"), events);
    this.state = new AtomicReference<>(newClosed(settings.config));
  }

  /** @return the settings this breaker runs on now */
  public CircuitBreakerConfig config() {
    return settings.config;
  }

  /**
   * Takes new settings without losing state: the circuit stays in its state, an OPEN one keeps its
   * cooldown, a HALF_OPEN one its probe successes, and a CLOSED one its count or window, against
   * which the new thresholds apply from the next outcome. Only a window of another shape (another
   * mode, span, call count or number of buckets, or slow calls judged or no longer judged) starts
   * empty, since the old counts do not fit it.
   *
   * @param config the new settings, of this breaker's name
   */
  @Override
  public synchronized void reconfigure(CircuitBreakerConfig config) {
    Objects.requireNonNull(config, "config");
    CircuitBreakerConfig before = settings.config;
    settings = new Settings(config, eventBus);
    if (sameWindow(before, config)) {
      return;
    }
    while (true) {
      CircuitGeneration current = state.get();
      if (!(current instanceof Closed) || state.compareAndSet(current, newClosed(config))) {
        return;
      }
    }
  }

  /** @return true: a local breaker takes new settings while it runs */
  @Override
  public boolean reconfigurable() {
    return true;
  }

  private static boolean sameWindow(CircuitBreakerConfig a, CircuitBreakerConfig b) {
    if (a.rateMode() != b.rateMode() || a.judgesSlowCalls() != b.judgesSlowCalls()) {
      return false;
    }
    if (a.judgesSlowCalls()
        && (a.windowCalls() != b.windowCalls() || !a.window().equals(b.window()) || a.windowBuckets() != b.windowBuckets())) {
      return false;
    }
    return !a.rateMode()
        || (a.windowCalls() == b.windowCalls() && a.window().equals(b.window()) && a.windowBuckets() == b.windowBuckets());
  }

  /**
   * {@inheritDoc}
   *
   * @throws CircuitOpenException while OPEN (with the time until a probe is admitted), or while
   *     HALF_OPEN with its probe in flight (with no retry-after)
   */
  @Override
  public Object acquire() {
    while (true) {
      CircuitGeneration current = state.get();
      if (current instanceof Closed) {
        return current;
      }
      CircuitGeneration admitted =
          current instanceof Open ? admitAfterCooldown((Open) current) : admitProbe((HalfOpen) current);
      if (admitted != null) {
        return admitted;
      }
      // Lost a race against another transition: decide again on the new state.
    }
  }

  /**
   * @return the ticket of the closed circuit, or null when it is open or half-open: then nothing is
   *     taken and nothing reported
   */
  @Override
  public Object takeNow() {
    CircuitGeneration current = state.get();
    return current instanceof Closed ? current : null;
  }

  /**
   * @param ticket a ticket returned by {@link #acquire()} of a local breaker
   * @return the breaker that issued it
   * @throws IllegalArgumentException when {@code ticket} is not a local breaker's ticket
   */
  public static DefaultCircuitBreaker ownerOf(Object ticket) {
    if (!(ticket instanceof CircuitGeneration)) {
      throw new IllegalArgumentException("not a circuit breaker ticket: " + ticket);
    }
    return ((CircuitGeneration) ticket).owner;
  }

  @Override
  public OutcomeClassifier classifier() {
    return settings.classifier;
  }

  /**
   * Applies a judged outcome to the generation that admitted the call, if it is still current.
   * The check and the update are not one atomic step, but that is harmless: an outcome that slips
   * in just after its generation ended only touches that generation's own counters, and every
   * transition it could cause is a compare-and-set from that ended generation, which fails.
   */
  @Override
  public void record(Object ticket, boolean failure, boolean slow, Throwable cause) {
    CircuitGeneration admitted = own(ticket);
    if (state.get() != admitted) {
      return;
    }
    if (admitted instanceof Closed) {
      Closed closed = (Closed) admitted;
      if (closed.slowWindow != null) {
        recordWithSlowCalls(closed, failure, slow, cause);
      } else {
        recordClosed(closed, failure, cause);
      }
    } else if (failure) {
      probeFailed((HalfOpen) admitted, cause);
    } else if (slow) {
      probeWasSlow((HalfOpen) admitted);
    } else {
      probeSucceeded((HalfOpen) admitted);
    }
  }

  @Override
  public void release(Object ticket) {
    CircuitGeneration admitted = own(ticket);
    if (admitted instanceof HalfOpen) {
      HalfOpen probe = (HalfOpen) admitted;
      state.compareAndSet(probe, new HalfOpen(this, probe.successes, false));
    }
  }

  @Override
  public String name() {
    return settings.config.name();
  }

  @Override
  public CircuitState state() {
    return state.get().kind();
  }

  @Override
  public void reset() {
    close(false);
  }

  @Override
  public void forceClosed() {
    close(true);
  }

  private void close(boolean hold) {
    heldClosed = hold;
    Settings now = settings;
    CircuitGeneration previous = state.getAndSet(newClosed(now.config));
    if (!(previous instanceof Closed)) {
      now.events.closed(previous.kind());
    }
  }

  @Override
  public void forceOpen() {
    heldClosed = false;
    Settings now = settings;
    CircuitGeneration previous = state.getAndSet(new Open(this, time.nanoTime(), true));
    now.events.openedByHand(previous.kind());
  }

  @Override
  public Optional<Duration> retryAfter() {
    CircuitGeneration current = state.get();
    if (current instanceof Open && !((Open) current).held) {
      return Optional.of(((Open) current).remaining(time.nanoTime()));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "CircuitBreaker[" + name() + ", " + state() + "]";
  }

  // ---- admission ----

  /** @return the probe's ticket, or null when another thread moved the state first */
  private CircuitGeneration admitAfterCooldown(Open open) {
    long now = time.nanoTime();
    if (!open.cooledDown(now)) {
      throw refuse(CircuitState.OPEN, open.held ? null : open.remaining(now));
    }
    HalfOpen probe = new HalfOpen(this, 0, true);
    if (!state.compareAndSet(open, probe)) {
      return null;
    }
    settings.events.halfOpen();
    return probe;
  }

  /** @return the probe's ticket, or null when another thread moved the state first */
  private CircuitGeneration admitProbe(HalfOpen halfOpen) {
    if (halfOpen.probing) {
      throw refuse(CircuitState.HALF_OPEN, null);
    }
    HalfOpen probe = new HalfOpen(this, halfOpen.successes, true);
    return state.compareAndSet(halfOpen, probe) ? probe : null;
  }

  private CircuitOpenException refuse(CircuitState refusedIn, Duration retryAfter) {
    return settings.events.rejected(refusedIn, retryAfter);
  }

  // ---- outcomes ----

  private void recordClosed(Closed closed, boolean failure, Throwable cause) {
    if (closed.window != null) {
      recordInRateWindow(closed, failure, cause, settings);
    } else if (!failure) {
      // Read first: most successes find the count at zero and need not write a shared line.
      if (closed.consecutiveFailures.get() != 0) {
        closed.consecutiveFailures.set(0);
      }
    } else {
      int failures = closed.consecutiveFailures.incrementAndGet();
      Settings now = settings;
      if (failures >= now.config.failureThreshold() && open(closed, now.config)) {
        now.events.openedByThreshold(CircuitState.CLOSED, failures, cause);
      }
    }
  }

  private void recordInRateWindow(Closed closed, boolean failure, Throwable cause, Settings now) {
    long counts = closed.window.record(failure);
    long calls = RateWindow.calls(counts);
    if (calls < now.config.minimumCalls()) {
      return;
    }
    double failureRate = (double) RateWindow.failures(counts) / calls;
    if (failureRate >= now.config.failureRate() && open(closed, now.config)) {
      now.events.openedByRate(failureRate, calls, cause);
    }
  }

  /**
   * With {@code slowCall} set: the slow window records every outcome; failures are judged as
   * without it (by rate in rate mode, else by consecutive count), and the circuit opens when
   * either judgement says so. Kept apart from {@link #recordClosed} so that a breaker without
   * {@code slowCall} runs exactly the code it ran before.
   */
  private void recordWithSlowCalls(Closed closed, boolean failure, boolean slow, Throwable cause) {
    Settings now = settings;
    CircuitBreakerConfig config = now.config;
    CircuitEvents events = now.events;
    long slowCounts = closed.slowWindow.record(slow);
    long calls = RateWindow.calls(slowCounts);
    double slowCallRate = calls < config.minimumCalls() ? Double.NaN : (double) RateWindow.failures(slowCounts) / calls;
    double failureRate = Double.NaN;
    long failureCalls = 0;
    if (closed.window != null) {
      long counts = closed.window.record(failure);
      failureCalls = RateWindow.calls(counts);
      if (failureCalls >= config.minimumCalls()) {
        failureRate = (double) RateWindow.failures(counts) / failureCalls;
      }
    } else if (failure) {
      int failures = closed.consecutiveFailures.incrementAndGet();
      if (failures >= config.failureThreshold() && open(closed, config)) {
        events.openedByThreshold(CircuitState.CLOSED, failures, cause);
        return;
      }
    } else if (closed.consecutiveFailures.get() != 0) {
      closed.consecutiveFailures.set(0);
    }
    boolean tooManyFailures = failureRate >= config.failureRate();
    boolean tooSlow = slowCallRate >= config.slowCallRate();
    if ((tooManyFailures || tooSlow) && open(closed, config)) {
      if (!tooSlow && RateWindow.failures(slowCounts) <= 0 && failureCalls > calls) {
        // A striped window that holds no slow outcome answers a fast one without adding up its
        // stripes (it cannot open anything): its rate is 0 over the calls the failure window,
        // which counts the same outcomes, holds.
        calls = failureCalls;
        slowCallRate = 0.0;
      }
      events.openedByRates(failureRate, slowCallRate, calls, cause);
    }
  }

  private void probeWasSlow(HalfOpen probe) {
    Settings now = settings;
    if (open(probe, now.config)) {
      now.events.openedBySlowProbe();
    }
  }

  private void probeSucceeded(HalfOpen probe) {
    int successes = probe.successes + 1;
    Settings now = settings;
    if (successes < now.config.successThreshold()) {
      state.compareAndSet(probe, new HalfOpen(this, successes, false));
    } else if (state.compareAndSet(probe, newClosed(now.config))) {
      now.events.closed(CircuitState.HALF_OPEN);
    }
  }

  private void probeFailed(HalfOpen probe, Throwable cause) {
    Settings now = settings;
    if (open(probe, now.config)) {
      // One failed probe is enough, whatever the mode; reported the classic way.
      now.events.openedByThreshold(CircuitState.HALF_OPEN, 1, cause);
    }
  }

  /**
   * Opens the circuit from {@code from}. The cooldown starts now, when the failing call returned,
   * so a slow failure does not use up part of it.
   *
   * @return whether this thread made the transition (and so must report it)
   */
  private boolean open(CircuitGeneration from, CircuitBreakerConfig config) {
    if (heldClosed) {
      return false;
    }
    long probeAt = time.nanoTime() + config.resetTimeout().toNanos();
    return state.compareAndSet(from, new Open(this, probeAt));
  }

  private Closed newClosed(CircuitBreakerConfig config) {
    return new Closed(
        this,
        config.rateMode() ? RateWindow.of(config, time) : null,
        config.judgesSlowCalls() ? RateWindow.of(config, time) : null);
  }

  /** @throws IllegalArgumentException when another breaker issued the ticket */
  private CircuitGeneration own(Object ticket) {
    if (ownerOf(ticket) != this) {
      throw new IllegalArgumentException("ticket issued by another circuit breaker: " + ticket);
    }
    return (CircuitGeneration) ticket;
  }
}
