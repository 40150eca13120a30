package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brace.Retry;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The retry's decisions as the caller and a metrics listener see them: a backoff that would end
 * just as the caller's deadline does, and the attempts a result predicate retried.
 */
class RetryPolicyDecisionsTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();
  private final RetryConfig config = RetryConfig.builder("reads")
      .maxAttempts(3).delay("200ms").multiplier(1.0).jitter(Retry.Jitter.NONE).build();

  private RetryPolicy underDeadlines() {
    DeadlinePolicy deadlines = new DeadlinePolicy(
        DeadlineConfig.builder("Client.get").inherit(true).build(), "Client.get", clock, clock::scheduler, events.bus());
    return new RetryPolicy(config, "Client.get", clock, events.bus(), null, deadlines);
  }

  @Test
  void thePolicyAnswersWithTheSettingsItWasMadeOf() {
    assertSame(config, new RetryPolicy(config, "Client.get", clock, events.bus(), null).config());
  }

  /** The next attempt would begin at the deadline, with no time left to end before it. */
  @Test
  void aBackoffThatWouldEndExactlyAtTheDeadlineIsNotStarted() {
    RetryPolicy policy = underDeadlines();
    try (Deadline.Scope scope = Deadline.open(Duration.ofMillis(200), clock)) {
      long decided = policy.decide(policy.continuing(null), 1, clock.nanoTime(), new IOException("down"));

      assertEquals(RetryPolicy.STOP, decided);
    }
    assertEquals("deadline", events.of("retry.exhausted").get(0).attributes().get("reason"));
  }

  @Test
  void aBackoffThatEndsJustBeforeTheDeadlineIsWaited() {
    RetryPolicy policy = underDeadlines();
    try (Deadline.Scope scope = Deadline.open(Duration.ofMillis(200).plusNanos(1), clock)) {
      long decided = policy.decide(policy.continuing(null), 1, clock.nanoTime(), new IOException("down"));

      assertEquals(200 * MS, decided);
    }
    assertEquals(List.of(), events.of("retry.exhausted"));
  }

  @Test
  void aBoundMetricsListenerHearsWhetherEachResultRetriedWasTriedAgain() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    try (AutoCloseable binding = events.bus().bindMetrics(metrics)) {
      RetryPolicy policy = new RetryPolicy(config, "Client.get", clock, events.bus(), null);
      RetryRun run = policy.continuing(null);

      assertEquals(200 * MS, policy.decideOnResult(run, 1, clock.nanoTime()));
      assertEquals(RetryPolicy.STOP, policy.decideOnResult(run, 3, clock.nanoTime()));

      assertEquals(List.of("retry reads attemptFailed retried", "retry reads attemptFailed exhausted"),
          metrics.starting("retry reads"));
    }
  }
}
