package dev.brace.it.matrix;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.CircuitEvents;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.OutcomeClassifier;
import java.time.Duration;
import java.util.Optional;

/**
 * A classic-mode breaker under one lock: consecutive failures open it, the first call after the
 * reset timeout is the single probe, {@code successThreshold} probe successes close it. Written to
 * be obviously right rather than fast. Slow calls are judged over a window of the last {@code
 * windowCalls} outcomes only (a list); rate mode and time windows are not needed by the matrix and
 * refused. Takes new settings while it runs, as a backend may, keeping its state.
 */
final class MemoryCircuitBreaker implements CircuitBreakerInstance {
  private final TimeSource time;
  private final EventSink sink;
  private CircuitBreakerConfig config;
  private CircuitEvents events;
  private OutcomeClassifier classifier;

  private CircuitState state = CircuitState.CLOSED;
  /** Bumped on every transition: an outcome admitted under an older generation is ignored. */
  private long generation;
  private int consecutiveFailures;
  private int probeSuccesses;
  private boolean probeInFlight;
  private long probeAt;
  /** Whether each of the last {@code windowCalls} outcomes was slow, oldest first. */
  private final java.util.ArrayDeque<Boolean> lastCalls = new java.util.ArrayDeque<>();

  MemoryCircuitBreaker(CircuitBreakerConfig config, TimeSource time, EventSink events) {
    if (config.rateMode() || (config.judgesSlowCalls() && config.windowCalls() == 0)) {
      throw new UnsupportedOperationException(
          "the in-memory test breaker has no rate mode and judges slow calls over windowCalls only: " + config.name());
    }
    this.time = time;
    this.sink = events;
    settings(config);
  }

  private void settings(CircuitBreakerConfig next) {
    this.config = next;
    this.events = new CircuitEvents(sink, next);
    this.classifier = new OutcomeClassifier(next);
  }

  @Override
  public boolean reconfigurable() {
    return true;
  }

  @Override
  public synchronized void reconfigure(CircuitBreakerConfig next) {
    if (next.rateMode() || (next.judgesSlowCalls() && next.windowCalls() == 0)) {
      throw new UnsupportedOperationException(
          "the in-memory test breaker has no rate mode and judges slow calls over windowCalls only: " + next.name());
    }
    settings(next);
  }

  /** What acquire hands out: the breaker and the generation it was admitted in. */
  private record Ticket(MemoryCircuitBreaker owner, long generation, boolean probe)
      implements CircuitBreakerInstance.Ticket {}

  @Override
  public synchronized Object acquire() {
    if (state == CircuitState.OPEN) {
      long now = time.nanoTime();
      if (now < probeAt) {
        throw events.rejected(CircuitState.OPEN, Duration.ofNanos(probeAt - now));
      }
      moveTo(CircuitState.HALF_OPEN);
      events.halfOpen();
    }
    if (state == CircuitState.HALF_OPEN) {
      if (probeInFlight) {
        throw events.rejected(CircuitState.HALF_OPEN, null);
      }
      probeInFlight = true;
      return new Ticket(this, generation, true);
    }
    return new Ticket(this, generation, false);
  }

  @Override
  public synchronized OutcomeClassifier classifier() {
    return classifier;
  }

  @Override
  public synchronized void record(Object ticket, boolean failure, boolean slow, Throwable cause) {
    Ticket admitted = own(ticket);
    if (admitted.generation() != generation) {
      return;
    }
    if (admitted.probe()) {
      probeInFlight = false;
      if (failure) {
        open();
        events.openedByThreshold(CircuitState.HALF_OPEN, 1, cause);
      } else if (slow) {
        open();
        events.openedBySlowProbe();
      } else if (++probeSuccesses >= config.successThreshold()) {
        moveTo(CircuitState.CLOSED);
        events.closed(CircuitState.HALF_OPEN);
      }
    } else if (!failure) {
      consecutiveFailures = 0;
      slowCallsOpen(slow, cause);
    } else if (++consecutiveFailures >= config.failureThreshold()) {
      int failures = consecutiveFailures;
      open();
      events.openedByThreshold(CircuitState.CLOSED, failures, cause);
    } else {
      slowCallsOpen(slow, cause);
    }
  }

  /** Adds an outcome to the last-calls list and opens when enough of them were slow. */
  private void slowCallsOpen(boolean slow, Throwable cause) {
    if (!config.judgesSlowCalls()) {
      return;
    }
    lastCalls.addLast(slow);
    if (lastCalls.size() > config.windowCalls()) {
      lastCalls.removeFirst();
    }
    long slowOnes = lastCalls.stream().filter(Boolean::booleanValue).count();
    if (lastCalls.size() >= config.minimumCalls() && (double) slowOnes / lastCalls.size() >= config.slowCallRate()) {
      int calls = lastCalls.size();
      open();
      events.openedByRates(Double.NaN, (double) slowOnes / calls, calls, cause);
    }
  }

  @Override
  public synchronized void release(Object ticket) {
    Ticket admitted = own(ticket);
    if (admitted.probe() && admitted.generation() == generation) {
      probeInFlight = false;
    }
  }

  private void open() {
    moveTo(CircuitState.OPEN);
    probeAt = time.nanoTime() + config.resetTimeout().toNanos();
  }

  private void moveTo(CircuitState next) {
    state = next;
    generation++;
    consecutiveFailures = 0;
    probeSuccesses = 0;
    probeInFlight = false;
    lastCalls.clear();
  }

  private Ticket own(Object ticket) {
    if (!(ticket instanceof Ticket) || ((Ticket) ticket).owner() != this) {
      throw new IllegalArgumentException("not a ticket of " + name() + ": " + ticket);
    }
    return (Ticket) ticket;
  }

  @Override
  public synchronized String name() {
    return config.name();
  }

  @Override
  public synchronized CircuitState state() {
    return state;
  }

  @Override
  public synchronized void reset() {
    CircuitState from = state;
    moveTo(CircuitState.CLOSED);
    if (from != CircuitState.CLOSED) {
      events.closed(from);
    }
  }

  @Override
  public synchronized Optional<Duration> retryAfter() {
    return state == CircuitState.OPEN
        ? Optional.of(Duration.ofNanos(Math.max(0, probeAt - time.nanoTime())))
        : Optional.empty();
  }
}
