package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.RetryAfterHint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A cause chain that loops is walked once round: each exception in it is asked for its hint once,
 * not again on every lap until the depth limit.
 */
class RetryAfterHintsCycleTest {
  private final RetryAfterHints hints = new RetryAfterHints(
      Clock.fixed(Instant.parse("2026-03-02T10:00:00Z"), ZoneOffset.UTC));

  @Test
  void aChainThatLoopsBackAsksEachExceptionForItsHintOnce() {
    Counted first = new Counted();
    Counted second = new Counted();
    first.initCause(second);
    second.initCause(first);

    assertEquals(RetryAfterHints.NONE, hints.hintNanos(first));

    assertEquals(1, first.asked.get(), "the first exception, met again as the second's cause");
    assertEquals(1, second.asked.get());
  }

  /** {@link Throwable#initCause} refuses an exception as its own cause, but a subclass may still answer itself. */
  @Test
  void anExceptionThatNamesItselfAsItsCauseIsAskedOnce() {
    Counted self = new Counted() {
      @Override
      public synchronized Throwable getCause() {
        return this;
      }
    };

    assertEquals(RetryAfterHints.NONE, hints.hintNanos(self));

    assertEquals(1, self.asked.get());
  }

  /** A user's exception that may carry a hint and has none, and counts how often it was asked. */
  private static class Counted extends RuntimeException implements RetryAfterHint {
    final AtomicInteger asked = new AtomicInteger();

    Counted() {
      super("no hint");
    }

    @Override
    public Optional<Duration> retryAfter() {
      asked.incrementAndGet();
      return Optional.empty();
    }
  }
}
