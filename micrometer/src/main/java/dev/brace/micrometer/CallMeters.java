package dev.brace.micrometer;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.CallMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The timers of one call name: {@code brace.attempts} by outcome, registered when the call first
 * reports, and {@code brace.calls} by outcome and deciding instance, each registered on its first
 * sample. A success or the delegate's own failure records into a timer held in a field; an outcome
 * an instance decided finds its timer by that instance's name, without allocating.
 */
final class CallMeters implements CallMetrics {
  private static final int SUCCESS = 0;
  private static final int FAILURE = 1;

  private final MeterBook book;
  private final String callName;
  private final Timer attemptSucceeded;
  private final Timer attemptFailed;
  /** The delegate's own outcomes, by {@link #SUCCESS} and {@link #FAILURE}. */
  private final AtomicReferenceArray<Timer> own = new AtomicReferenceArray<>(2);
  /** By the deciding instance's kind, then by its name as the call gives it. */
  private final Map<String, Map<String, Meter>> decided = new ConcurrentHashMap<>();

  CallMeters(MeterBook book, String callName) {
    this.book = book;
    this.callName = callName;
    this.attemptSucceeded = attemptTimer("success");
    this.attemptFailed = attemptTimer("failure");
  }

  private Timer attemptTimer(String outcome) {
    return (Timer) book.register(Timer.builder("brace.attempts")
        .description("attempts that reached the dependency")
        .tags("call", callName, "outcome", outcome));
  }

  @Override
  public void attemptSucceeded(long nanos) {
    attemptSucceeded.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void attemptAndCallSucceeded(long attemptNanos, long callNanos) {
    attemptSucceeded.record(attemptNanos, TimeUnit.NANOSECONDS);
    ownOutcome(SUCCESS, "success").record(callNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void attemptFailed(long nanos) {
    attemptFailed.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void succeeded(long nanos) {
    ownOutcome(SUCCESS, "success").record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void failed(long nanos) {
    ownOutcome(FAILURE, "failure").record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The timer of an outcome the delegate decided ({@code kind=call}), held once registered. */
  private Timer ownOutcome(int index, String outcome) {
    Timer timer = own.get(index);
    if (timer == null) {
      timer = callTimer(outcome, "call", outcome, callName);
      own.set(index, timer);
    }
    return timer;
  }

  @Override
  public void rejected(Kind by, String instance, long nanos) {
    callTimer(by.key(), by.key(), "rejected", instance).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void timedOut(String timeout, long nanos) {
    callTimer(Kind.TIMEOUT.key(), Kind.TIMEOUT.key(), "timeout", timeout).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void fellBack(String fallback, long nanos) {
    callTimer(Kind.FALLBACK.key(), Kind.FALLBACK.key(), "fallback", fallback).record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * @param decidedBy what the timers are kept under: the deciding instance's kind, or the outcome
   *     when the delegate's own result or failure decided
   * @param kind the {@code kind} tag: the deciding instance's, or {@code call}
   * @param outcome the {@code outcome} tag
   * @param instance the deciding instance, or the call's name
   */
  private Timer callTimer(String decidedBy, String kind, String outcome, String instance) {
    Map<String, Meter> byName = decided.get(decidedBy);
    if (byName == null) {
      byName = decided.computeIfAbsent(decidedBy, k -> new ConcurrentHashMap<>());
    }
    return (Timer) book.meterFor(byName, instance, tags -> Timer.builder("brace.calls")
        .description("calls by outcome, as long as the caller waited for it")
        .tags(tags).tag("call", callName).tag("kind", kind).tag("outcome", outcome));
  }
}
