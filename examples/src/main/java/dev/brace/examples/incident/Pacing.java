package dev.brace.examples.incident;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * What moves the incident on: its clock, its current phase, when each caller makes its next call,
 * and the service's luck. Both runs and both services share one pacing, so they live through the
 * same incident.
 *
 * <p>The demo uses {@link #realTime(IncidentScript)}: phases follow the script on the system's
 * clock and failures are random. A test can pass a pacing that switches phases by what has
 * happened instead (so a slow machine cannot leave a phase with too few calls), seeds the failures,
 * and keeps the clock that the Brace registry also reads.
 */
public interface Pacing {

  /**
   * A moment of the incident.
   *
   * @param elapsedNanos time since the incident began, on the incident's clock
   * @param phase the phase the incident was in
   */
  record Moment(long elapsedNanos, Phase phase) {
    /** @return {@link #elapsedNanos} in whole milliseconds */
    public long elapsedMillis() {
      return elapsedNanos / 1_000_000;
    }
  }

  /**
   * @param script the phases' durations and how the service misbehaves
   * @return the demo's pacing: the script on the system's clock, unseeded failures
   */
  static Pacing realTime(IncidentScript script) {
    return new RealTimePacing(script);
  }

  /** Starts the incident's clock; until then the services are healthy and log nothing. */
  void begin();

  /** @return now, or empty before {@link #begin()} */
  Optional<Moment> now();

  /**
   * @return when the incident began, on the clock the Brace registry stamps its events with
   * @throws IllegalStateException before {@link #begin()}
   */
  Instant beganAt();

  /**
   * @param phase a phase
   * @return where a service draws its failures in that phase from; each call gives a new,
   *     thread-safe generator, so each service has its own
   */
  Random failures(Phase phase);

  /**
   * What the service does with a request in the latency spike before it answers: answers later
   * than any client waits.
   *
   * @param latency how late the script says
   * @throws InterruptedException when the service is stopped meanwhile
   */
  void answerLate(Duration latency) throws InterruptedException;

  /**
   * A caller waits here before each of its calls.
   *
   * @param first whether it is the caller's first call
   * @param throughBrace whether the caller calls through the Brace wrapper, whose waits (timeout,
   *     backoff, bulkhead) are on the registry's clock rather than the system's
   * @return false when the incident is over and the caller should stop
   * @throws InterruptedException when the caller is interrupted meanwhile
   */
  boolean nextCall(boolean first, boolean throughBrace) throws InterruptedException;

  /** The calling caller's call has ended and has been recorded. */
  void callEnded();

  /** The calling thread sends a request to the service (called under the Brace wrapper). */
  default void requestSent() {}

  /** The calling thread's request has its response or failed. */
  default void requestEnded() {}

  /**
   * Runs the incident to its end; returns once every caller has been told to stop.
   *
   * @param callers how many callers the runs have together; they call {@link #nextCall} from
   *     their own threads
   * @param tick called with the incident's time in milliseconds every {@code tickMillis} of it;
   *     a pacing that does not follow the system's clock may never call it
   * @param tickMillis how often
   * @throws InterruptedException when interrupted meanwhile
   * @throws IllegalStateException when the incident cannot go on (a pacing that waits for the
   *     callers says which did not)
   */
  void drive(int callers, LongConsumer tick, long tickMillis) throws InterruptedException;

  /**
   * @return the phases as they happened (how long each lasted on the incident's clock), with the
   *     script's misbehaviour
   * @throws IllegalStateException before {@link #drive} has returned, for a pacing that decides
   *     the phases' lengths as it goes
   */
  IncidentScript played();
}
