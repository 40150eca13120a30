package dev.brace.runtime.spi;

import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.util.Objects;

/**
 * A circuit breaker as the drivers call it: {@link #acquire()} admits a call or refuses it, and the
 * ticket it returns is completed by exactly one of {@link #onSuccess}, {@link #onResult}, {@link
 * #onFailure} or {@link #release}. Implemented by the local breaker and by shared backends.
 *
 * <p>Which outcomes count is decided here, once, for every implementation (through the {@link
 * #classifier()}); an implementation only applies a judged outcome ({@link #record}) or frees a
 * ticket without one ({@link #release}).
 */
public interface CircuitBreakerInstance extends CircuitBreakerHandle {

  /**
   * Admits one call. While OPEN, the first call after the reset timeout moves the circuit to
   * HALF_OPEN and is admitted as its probe.
   *
   * @return the ticket (a {@link Ticket}) to complete exactly once; never null
   * @throws CircuitOpenException while OPEN, or while HALF_OPEN with its probe in flight
   */
  Object acquire();

  /**
   * Admits one call only if that needs no decision now: the circuit is closed. An attempt that
   * must not wait asks this first and, when the answer is null, goes the way of {@link #acquire()},
   * which decides whether the open circuit has cooled down and which call is the half-open probe.
   * The ticket is completed on this breaker, as one from {@link #acquire()}.
   *
   * <p>The default answers null ("not now"): a breaker that must ask elsewhere to admit (a shared
   * backend's) is always asked through {@link #acquire()}.
   *
   * @return the ticket to complete exactly once, or null: then nothing is taken and nothing reported
   */
  default Object takeNow() {
    return null;
  }

  /** @return which failures and results count, from this breaker's config */
  OutcomeClassifier classifier();

  /**
   * Applies a judged outcome to the state the ticket was admitted in, if that state is current.
   * With {@code slowCall} set, {@code slow} goes into the rolling window beside {@code failure},
   * and a slow probe is a failed probe.
   *
   * @param ticket the ticket of the call
   * @param failure whether the outcome is a counted failure
   * @param slow whether the attempt took longer than {@code slowCall} (always false without it)
   * @param cause the counted exception, or null
   * @throws IllegalArgumentException when another breaker issued the ticket
   */
  void record(Object ticket, boolean failure, boolean slow, Throwable cause);

  /**
   * Completes a call without an outcome (it never reached the dependency, or ended in a way the
   * breaker does not judge). A probe's slot is freed and the circuit stays HALF_OPEN.
   *
   * @param ticket the ticket of the call
   * @throws IllegalArgumentException when another breaker issued the ticket
   */
  void release(Object ticket);

  /**
   * Records a success without looking at the result.
   *
   * @param ticket the ticket of the call
   * @throws IllegalArgumentException when another breaker issued the ticket
   */
  default void onSuccess(Object ticket) {
    record(ticket, false, false, null);
  }

  /**
   * Records a result: a counted failure when the {@code onResult} predicate is true for it, a
   * success otherwise.
   *
   * @param ticket the ticket of the call
   * @param result what the call returned; may be null
   * @throws IllegalArgumentException when another breaker issued the ticket
   * @throws RuntimeException what the predicate threw; the ticket is then released
   */
  default void onResult(Object ticket, Object result) {
    onResult(ticket, result, OutcomeClassifier.NOT_TIMED);
  }

  /**
   * Records a result and how long its attempt took: a counted failure when the {@code onResult}
   * predicate is true for it, slow when it took longer than {@code slowCall}.
   *
   * @param ticket the ticket of the call
   * @param result what the call returned; may be null
   * @param elapsedNanos how long the attempt took, or {@link OutcomeClassifier#NOT_TIMED}
   * @throws IllegalArgumentException when another breaker issued the ticket
   * @throws RuntimeException what the predicate threw; the ticket is then released
   */
  default void onResult(Object ticket, Object result, long elapsedNanos) {
    // Read once: one outcome is judged by one version of the settings, however they change meanwhile.
    OutcomeClassifier classifier = classifier();
    boolean failure;
    try {
      failure = classifier.resultCounts(result);
    } catch (RuntimeException predicateFailure) {
      // A ticket left open would hold the half-open probe slot forever.
      release(ticket);
      throw predicateFailure;
    }
    record(ticket, failure, classifier.isSlow(elapsedNanos), null);
  }

  /**
   * Records a failure. It counts only when the classifier says so; any other exception leaves the
   * state as it is (and frees the probe slot if the call was the probe).
   *
   * @param ticket the ticket of the call
   * @param failure what the call threw
   * @throws IllegalArgumentException when another breaker issued the ticket
   * @throws NullPointerException when {@code failure} is null
   */
  default void onFailure(Object ticket, Throwable failure) {
    onFailure(ticket, failure, OutcomeClassifier.NOT_TIMED);
  }

  /**
   * Records a failure and how long its attempt took. Only a counted failure is an outcome (slow
   * or not); any other exception leaves the state as it is, however long it took.
   *
   * @param ticket the ticket of the call
   * @param failure what the call threw
   * @param elapsedNanos how long the attempt took, or {@link OutcomeClassifier#NOT_TIMED}
   * @throws IllegalArgumentException when another breaker issued the ticket
   * @throws NullPointerException when {@code failure} is null
   */
  default void onFailure(Object ticket, Throwable failure, long elapsedNanos) {
    Objects.requireNonNull(failure, "failure");
    OutcomeClassifier classifier = classifier();
    if (classifier.counts(failure)) {
      record(ticket, true, classifier.isSlow(elapsedNanos), failure);
    } else {
      release(ticket);
    }
  }

  /**
   * @return whether this breaker takes new settings while it runs ({@link #reconfigure}); a
   *     registry refuses a reconfiguration that would change the settings of one that does not.
   *     False unless an implementation says otherwise.
   */
  default boolean reconfigurable() {
    return false;
  }

  /**
   * Takes new settings without losing state: the circuit keeps its state, its cooldown and its
   * counts, and the new thresholds apply from the next outcome. Called only when {@link
   * #reconfigurable()} is true.
   *
   * @param config the new settings, of this breaker's name
   * @throws UnsupportedOperationException when this breaker cannot take new settings
   */
  default void reconfigure(CircuitBreakerConfig config) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot take new settings while it runs");
  }

  /**
   * @param ticket a ticket returned by {@link #acquire()} of any breaker
   * @return the breaker that issued it (a keyed family routes outcomes back this way)
   * @throws IllegalArgumentException when {@code ticket} is not a breaker's ticket
   */
  static CircuitBreakerInstance ownerOf(Object ticket) {
    if (!(ticket instanceof Ticket)) {
      throw new IllegalArgumentException("not a circuit breaker ticket: " + ticket);
    }
    return ((Ticket) ticket).owner();
  }

  /** What {@link #acquire()} returns: it knows the breaker that issued it. */
  interface Ticket {
    /** @return the breaker that issued this ticket */
    CircuitBreakerInstance owner();
  }
}
