package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.event.EventBus;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the hedge, the stale answers and the timeout report to a metrics listener bound on their
 * event boundary: each thing that happened, once, to the instance's own handle.
 */
class PolicyMetricsReportsTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final RecordedMetrics metrics = new RecordedMetrics();

  {
    events.bindMetrics(metrics);
  }

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void aHedgeReportsEachHedgeStartedRefusedAndWhichAttemptWon() {
    HedgeConfig config = HedgeConfig.builder("Client.get").delay("50ms").build();
    HedgePolicy hedge = new HedgePolicy(config, "Client.get", events, null, false);
    assertSame(config, hedge.config());

    hedge.started(2);
    hedge.won(1, 2);
    hedge.started(2);
    hedge.budgetExhausted(3);
    hedge.won(2, 2);

    assertEquals(List.of(
        "hedge Client.get hedgeStarted",
        "hedge Client.get hedgeWon first",
        "hedge Client.get hedgeStarted",
        "hedge Client.get hedgeBudgetExhausted",
        "hedge Client.get hedgeWon hedge"), metrics.starting("hedge "));
  }

  @Test
  void staleAnswersReportEachFailureAnsweredAndEachOneLeftWithoutAnAnswer() {
    StaleAnswers answers = new StaleAnswers(StaleIfErrorConfig.builder("quote").maxAge(Duration.ofSeconds(10)).build(),
        "Quotes.get", clock, events);

    assertSame(StaleAnswers.NONE, answers.answer("k", new IOException("down"), null, false));
    answers.remember("k", "v1", null);
    assertEquals("v1", answers.answer("k", new IOException("down"), null, false));

    assertEquals(List.of("staleiferror quote staleMissing", "staleiferror quote staleServed"),
        metrics.starting("staleiferror "));
  }

  @Test
  void aTimeoutReportsAnAttemptItCutOff() {
    TimeoutConfig config = TimeoutConfig.builder("T").duration("1s").build();
    Executor noWorkers = task -> {
      throw new AssertionError("an interrupting timeout runs the attempt on the caller's thread");
    };
    TimeoutPolicy timeout = new TimeoutPolicy(config, "C.m", clock, clock.scheduler(), noWorkers, events);
    assertEquals("in time", assertDoesNotThrow(() -> timeout.call(() -> "in time", clock.nanoTime() + timeout.nanos(), timeout.nanos(), timeout.mode(), timeout.ownExpiry())));
    assertThrows(TimeoutExceededException.class, () -> timeout.call(() -> {
      clock.sleep(Duration.ofHours(1));
      return "too late";
    }, clock.nanoTime() + timeout.nanos(), timeout.nanos(), timeout.mode(), timeout.ownExpiry()));

    assertEquals(List.of("timeout T timedOut"), metrics.starting("timeout "), "once, for the attempt cut off");
  }

  @Test
  void theMarkersForNoAnswerAndNoKeyReadAsWhatTheyMeanWhenPrinted() {
    // They show up in logs and in failed assertions; an Object's default name says nothing.
    assertEquals("no answer", String.valueOf(StaleAnswers.NONE));
    assertEquals("(no key)", String.valueOf(StaleAnswers.keyOf(null)));
  }
}
