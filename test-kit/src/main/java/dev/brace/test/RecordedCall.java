package dev.brace.test;

import dev.brace.runtime.Event;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.opentest4j.AssertionFailedError;

/**
 * One call as the test's registry saw it: its attempts, the waits before them, the decisions of its
 * patterns and its outcome, with assertions that read as the behaviour:
 *
 * <pre>{@code
 * brace.call("Catalog.item").retried(2).thenFellBack();
 * brace.call("Quotes.quote").waited(Duration.ofSeconds(1)).thenSucceeded();
 * }</pre>
 *
 * <p>Every assertion returns this call, to chain the next. A failed one throws an {@link
 * AssertionFailedError} whose message holds the call's whole timeline (every event, when it
 * happened on the test's time, and what it carried), so the failure explains itself.
 */
public final class RecordedCall {
  private final String name;
  private final int number;
  private final List<Recording.Entry> entries;
  private final boolean ended;

  RecordedCall(String name, int number, List<Recording.Entry> entries, boolean ended) {
    this.name = name;
    this.number = number;
    this.entries = entries;
    this.ended = ended;
  }

  /** @return the call's name, {@code Interface.method} or a stack's name */
  public String name() {
    return name;
  }

  /**
   * @return how the call ended: {@code success}, {@code failure}, {@code rejected} (a breaker,
   *     limiter or bulkhead refused it), {@code timeout}, {@code fallback}; {@code under way} while
   *     it has not ended (an asynchronous call waiting for time to pass)
   */
  public String outcome() {
    return ended ? String.valueOf(last("call.ended").attributes().get("outcome")) : "under way";
  }

  /** @return the attempts made, hedges included; an attempt that fault injection failed counts, though it never reached the dependency */
  public int attempts() {
    return count("call.succeeded") + count("call.failed");
  }

  /** @return the attempts that failed and were followed by another: retries, not hedges */
  public int retries() {
    return (int) entries.stream()
        .filter(entry -> entry.event().kind().equals("retry.attempt_failed") && entry.event().attributes().containsKey("delay_ms"))
        .count();
  }

  /**
   * @return the time the call spent waiting: before each retry (its backoff, or the {@code
   *     Retry-After} the dependency asked for) and for a limiter's token or a bulkhead's permit
   */
  public Duration waits() {
    Duration total = Duration.ZERO;
    for (Recording.Entry entry : entries) {
      Event event = entry.event();
      Object delay = event.kind().equals("retry.attempt_failed") ? event.attributes().get("delay_ms") : null;
      Object waited = event.kind().endsWith(".waited") ? event.attributes().get("waited_ns") : null;
      if (delay instanceof Number millis) {
        total = total.plusMillis(millis.longValue());
      } else if (waited instanceof Number nanos) {
        total = total.plusNanos(nanos.longValue());
      }
    }
    return total;
  }

  /** @return every event of the call, one line each: when (on the test's time), what, which instance, the details */
  public String timeline() {
    return Recording.timeline(entries);
  }

  /**
   * @param expected how many attempts should have been made
   * @return this call
   * @throws AssertionFailedError when another number did, with the call's timeline
   */
  public RecordedCall attempted(int expected) {
    if (attempts() != expected) {
      throw failure("to make " + plural(expected, "attempt"), "made " + attempts(), expected, attempts());
    }
    return this;
  }

  /**
   * @param expected how many times the call should have been retried (attempts after the first)
   * @return this call
   * @throws AssertionFailedError when it was retried another number of times, with the call's timeline
   */
  public RecordedCall retried(int expected) {
    if (retries() != expected) {
      throw failure("to be retried " + plural(expected, "time"), "it was retried " + plural(retries(), "time"), expected, retries());
    }
    return this;
  }

  /**
   * @param expected how long the call should have waited in all: its backoffs, the {@code Retry-After}
   *     its dependency asked for, the wait for a limiter's token or a bulkhead's permit
   * @return this call
   * @throws AssertionFailedError when it waited another time, with the call's timeline
   * @throws NullPointerException when {@code expected} is null
   */
  public RecordedCall waited(Duration expected) {
    Objects.requireNonNull(expected, "expected");
    if (!waits().equals(expected)) {
      throw failure("to wait " + Recording.offset(expected).substring(1), "it waited " + Recording.offset(waits()).substring(1),
          expected, waits());
    }
    return this;
  }

  /**
   * For a wait the dependency asked for: Brace waits a {@code Retry-After} with a margin (5 % and a
   * millisecond, so the retry never arrives early), and a {@code Retry-After: 1} makes the call wait
   * 1.051 s; {@code waitedAtLeast(Duration.ofSeconds(1))} says what the test means.
   *
   * @param expected the least the call should have waited in all, as {@link #waited}
   * @return this call
   * @throws AssertionFailedError when it waited less, with the call's timeline
   * @throws NullPointerException when {@code expected} is null
   */
  public RecordedCall waitedAtLeast(Duration expected) {
    Objects.requireNonNull(expected, "expected");
    if (waits().compareTo(expected) < 0) {
      throw failure("to wait at least " + Recording.offset(expected).substring(1),
          "it waited " + Recording.offset(waits()).substring(1), expected, waits());
    }
    return this;
  }

  /**
   * @param expected how many hedges should have been sent beside the first attempt
   * @return this call
   * @throws AssertionFailedError when another number was, with the call's timeline
   */
  public RecordedCall hedged(int expected) {
    int hedges = count("hedge.started");
    if (hedges != expected) {
      throw failure("to send " + plural(expected, "hedge"), "it sent " + hedges, expected, hedges);
    }
    return this;
  }

  /**
   * @return this call
   * @throws AssertionFailedError when the call did not end with its dependency's answer, with its timeline
   */
  public RecordedCall succeeded() {
    return endedWith("success");
  }

  /**
   * @return this call
   * @throws AssertionFailedError when the call did not end in a failure its caller saw (its
   *     dependency's, a refusal, or a timeout), with its timeline
   */
  public RecordedCall failed() {
    String outcome = outcome();
    if (!outcome.equals("failure") && !outcome.equals("rejected") && !outcome.equals("timeout")) {
      throw failure("to end in a failure", "it ended in " + outcome, "failure", outcome);
    }
    return this;
  }

  /**
   * @return this call
   * @throws AssertionFailedError when no fallback answered the call, with its timeline
   */
  public RecordedCall fellBack() {
    return endedWith("fallback");
  }

  /**
   * @return this call
   * @throws AssertionFailedError when no breaker, limiter or bulkhead refused the call, with its timeline
   */
  public RecordedCall wasRejected() {
    return endedWith("rejected");
  }

  /**
   * @return this call
   * @throws AssertionFailedError when the call did not end by its timeout, with its timeline
   */
  public RecordedCall timedOut() {
    return endedWith("timeout");
  }

  /**
   * @return this call
   * @throws AssertionFailedError when no remembered answer was served for the call, with its timeline
   */
  public RecordedCall servedStale() {
    if (count("stale.served") == 0) {
      throw failure("to be answered from a remembered result", "it was not", "stale.served", outcome());
    }
    return this;
  }

  /**
   * As {@link #succeeded()}, to read after another assertion: {@code retried(1).thenSucceeded()}.
   *
   * @return this call
   * @throws AssertionFailedError as {@link #succeeded()}
   */
  public RecordedCall thenSucceeded() {
    return succeeded();
  }

  /**
   * As {@link #failed()}, to read after another assertion: {@code retried(2).thenFailed()}.
   *
   * @return this call
   * @throws AssertionFailedError as {@link #failed()}
   */
  public RecordedCall thenFailed() {
    return failed();
  }

  /**
   * As {@link #fellBack()}, to read after another assertion: {@code retried(2).thenFellBack()}.
   *
   * @return this call
   * @throws AssertionFailedError as {@link #fellBack()}
   */
  public RecordedCall thenFellBack() {
    return fellBack();
  }

  private RecordedCall endedWith(String expected) {
    String outcome = outcome();
    if (!outcome.equals(expected)) {
      throw failure("to end in " + expected, "it ended in " + outcome, expected, outcome);
    }
    return this;
  }

  private AssertionFailedError failure(String expectation, String actually, Object expected, Object actual) {
    return new AssertionFailedError(this + " was expected " + expectation + ", but " + actually + ".\n"
        + "Its timeline (time since the test began, event, instance, details):\n" + timeline(), expected, actual);
  }

  private int count(String kind) {
    return (int) entries.stream().filter(entry -> entry.event().kind().equals(kind)).count();
  }

  private Event last(String kind) {
    Event found = null;
    for (Recording.Entry entry : entries) {
      if (entry.event().kind().equals(kind)) {
        found = entry.event();
      }
    }
    return found;
  }

  private static String plural(int count, String noun) {
    return count + " " + noun + (count == 1 ? "" : "s");
  }

  @Override
  public String toString() {
    return "call " + number + " of " + name;
  }
}
