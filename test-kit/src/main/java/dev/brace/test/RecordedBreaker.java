package dev.brace.test;

import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.CircuitState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * A circuit breaker of the test's registry, with the states it went through since the test began
 * and assertions on them:
 *
 * <pre>{@code
 * brace.breaker("catalog-api").wentThrough(OPEN, HALF_OPEN, CLOSED);
 * brace.breaker("catalog-api").isOpen();
 * }</pre>
 *
 * <p>A failed assertion throws an {@link AssertionFailedError} with the breaker's timeline: every
 * transition and refusal, when it happened on the test's time, and why.
 */
public final class RecordedBreaker {
  private final CircuitBreakerHandle handle;
  private final List<Recording.Entry> entries;

  RecordedBreaker(CircuitBreakerHandle handle, List<Recording.Entry> entries) {
    this.handle = handle;
    this.entries = entries;
  }

  /** @return the breaker's name */
  public String name() {
    return handle.name();
  }

  /**
   * @return the state as stored now; an OPEN breaker whose cooldown has passed reads OPEN until the
   *     next call moves it to HALF_OPEN
   */
  public CircuitState state() {
    return handle.state();
  }

  /** @return the states it entered since the test began, in order */
  public List<CircuitState> transitions() {
    List<CircuitState> states = new ArrayList<>();
    for (Recording.Entry entry : entries) {
      if (entry.event().kind().startsWith("circuit.") && entry.event().attributes().get("to") instanceof String to) {
        states.add(CircuitState.valueOf(to));
      }
    }
    return states;
  }

  /** @return every event of the breaker, one line each: when, what, the details */
  public String timeline() {
    return Recording.timeline(entries);
  }

  /**
   * @param expected the states it should have entered since the test began, in order, and no others
   * @return this breaker
   * @throws AssertionFailedError when it went through others, with its timeline
   */
  public RecordedBreaker wentThrough(CircuitState... expected) {
    List<CircuitState> wanted = Arrays.asList(expected);
    if (!transitions().equals(wanted)) {
      throw failure("to go through " + wanted, "it went through " + transitions(), wanted, transitions());
    }
    return this;
  }

  /**
   * @return this breaker
   * @throws AssertionFailedError when it is not OPEN now, with its timeline
   */
  public RecordedBreaker isOpen() {
    return isIn(CircuitState.OPEN);
  }

  /**
   * @return this breaker
   * @throws AssertionFailedError when it is not CLOSED now, with its timeline
   */
  public RecordedBreaker isClosed() {
    return isIn(CircuitState.CLOSED);
  }

  /**
   * @return this breaker
   * @throws AssertionFailedError when it is not HALF_OPEN now, with its timeline
   */
  public RecordedBreaker isHalfOpen() {
    return isIn(CircuitState.HALF_OPEN);
  }

  private RecordedBreaker isIn(CircuitState expected) {
    CircuitState state = state();
    if (state != expected) {
      throw failure("to be " + expected, "it is " + state, expected, state);
    }
    return this;
  }

  private AssertionFailedError failure(String expectation, String actually, Object expected, Object actual) {
    return new AssertionFailedError("circuit breaker '" + name() + "' was expected " + expectation + ", but " + actually
        + ".\nIts timeline (time since the test began, event, instance, details):\n" + timeline(), expected, actual);
  }

  @Override
  public String toString() {
    return "circuit breaker '" + name() + "'";
  }
}
