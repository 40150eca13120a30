package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import dev.brace.runtime.spi.OutcomeClassifier;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * Every pattern's filter reads a failure through its causes: a client framework's exception
 * around an {@code IOException} is what {@code on = IOException.class} means, for the retry, the
 * breaker, the fallback, the hedge, stale answers and an adaptive limiter's {@code throttledOn}.
 */
class CauseChainFiltersTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();

  /** What RestClient throws for an I/O failure: ResourceAccessException, caused by the IOException. */
  static final class ResourceAccess extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ResourceAccess(IOException cause) {
      super("I/O error on GET request: " + cause.getMessage(), cause);
    }
  }

  private static ResourceAccess accessFailure() {
    return new ResourceAccess(new SocketTimeoutException("read timed out"));
  }

  @Test
  void aRetryOnIOExceptionRetriesAFrameworkExceptionCausedByOne() {
    RetryPolicy retry = new RetryPolicy(RetryConfig.builder("reads").maxAttempts(3).delay("100ms")
        .jitter(Retry.Jitter.NONE).on(IOException.class).build(), "Client.get", clock, events.bus(), null);
    RetryRun run = retry.continuing(null);

    assertEquals(Duration.ofMillis(100).toNanos(), retry.decide(run, 1, retry.begin(), accessFailure()));
    assertEquals(RetryPolicy.STOP, retry.decide(run, 1, retry.begin(), new IllegalStateException("not I/O")));
    assertEquals(ResourceAccess.class.getName(), events.of("retry.attempt_failed").get(0).attributes().get("exception"),
        "events name the exception thrown, not the cause that matched");
  }

  @Test
  void aRetryLeavesAFailureAloneWhenACauseIsIgnored() {
    RetryPolicy retry = new RetryPolicy(RetryConfig.builder("reads").maxAttempts(3).delay("100ms")
        .jitter(Retry.Jitter.NONE).ignore(SocketTimeoutException.class).build(), "Client.get", clock, events.bus(), null);
    assertEquals(RetryPolicy.STOP, retry.decide(retry.continuing(null), 1, retry.begin(), accessFailure()));
  }

  @Test
  void aBreakerCountsAFrameworkExceptionCausedByAListedTypeAndNotOneCausedByAnIgnoredType() {
    OutcomeClassifier onIo = new OutcomeClassifier(CircuitBreakerConfig.builder("recs-api").on(IOException.class).build());
    assertTrue(onIo.counts(accessFailure()));
    assertTrue(onIo.counts(new CompletionException(accessFailure())));
    assertFalse(onIo.counts(new IllegalStateException("not I/O")));

    OutcomeClassifier ignoringTimeouts = new OutcomeClassifier(
        CircuitBreakerConfig.builder("recs-api").ignore(SocketTimeoutException.class).build());
    assertFalse(ignoringTimeouts.counts(accessFailure()), "its cause is ignored, although Exception is in on");
  }

  @Test
  void aFallbackReceivesTheExceptionThrownWhenItsParameterTakesIt() {
    FallbackPolicy takesAny = new FallbackPolicy(
        FallbackConfig.builder("Client.get").on(IOException.class).build(), null, "Client.get", events.bus());
    ResourceAccess thrown = accessFailure();
    assertSame(thrown, takesAny.answerable(thrown));
    assertSame(thrown, takesAny.answerable(new CompletionException(thrown)), "below the async wrapper");

    FallbackPolicy takesRuntime = new FallbackPolicy(
        FallbackConfig.builder("Client.get").on(IOException.class, IllegalStateException.class).build(),
        Exception.class, "Client.get", events.bus());
    assertSame(thrown, takesRuntime.answerable(thrown));
  }

  @Test
  void aFallbackWhoseParameterTakesOnlyTheMatchedCauseReceivesThatCause() {
    FallbackPolicy takesIo = new FallbackPolicy(
        FallbackConfig.builder("Client.get").on(IOException.class).build(), IOException.class, "Client.get", events.bus());
    ResourceAccess thrown = accessFailure();
    assertSame(thrown.getCause(), takesIo.answerable(thrown));
    assertSame(thrown.getCause(), takesIo.answerable(new CompletionException(thrown)));
    assertNull(takesIo.answerable(new IllegalStateException("not I/O")));

    FallbackPolicy ignoring = new FallbackPolicy(FallbackConfig.builder("Client.get").on(IOException.class)
        .ignore(SocketTimeoutException.class).build(), IOException.class, "Client.get", events.bus());
    assertNull(ignoring.answerable(thrown), "an ignored cause keeps the fallback out");
  }

  @Test
  void aFallbackAnswersARefusalAsItselfOnly() {
    FallbackPolicy onOpen = new FallbackPolicy(FallbackConfig.builder("Client.get").on(CircuitOpenException.class).build(),
        CircuitOpenException.class, "Client.get", events.bus());
    CircuitOpenException open = new CircuitOpenException("recs-api", Duration.ofSeconds(1));
    assertSame(open, onOpen.answerable(open));
    assertNull(onOpen.answerable(new IllegalStateException("a deeper call's refusal", open)));
  }

  @Test
  void aHedgeStartsAtOnceAfterAFrameworkExceptionCausedByAListedType() {
    HedgePolicy hedge = new HedgePolicy(HedgeConfig.builder("Client.get").on(IOException.class).build(),
        "Client.get", events.bus(), null, true);
    assertTrue(hedge.hedgesAfter(accessFailure()));
    assertTrue(hedge.hedgesAfter(new CompletionException(accessFailure())));
    assertFalse(hedge.hedgesAfter(new IllegalStateException("not I/O")));

    HedgePolicy ignoring = new HedgePolicy(HedgeConfig.builder("Client.get").ignore(SocketTimeoutException.class).build(),
        "Client.get", events.bus(), null, true);
    assertFalse(ignoring.hedgesAfter(accessFailure()));
  }

  @Test
  void aStaleAnswerServesAFrameworkExceptionCausedByAListedType() {
    StaleAnswers answers = new StaleAnswers(StaleIfErrorConfig.builder("quote").maxAge(Duration.ofMinutes(1))
        .on(IOException.class).build(), "Client.quote", clock, events.bus());
    answers.remember("k", "remembered", null);
    assertEquals("remembered", answers.answer("k", accessFailure(), null, false));
    assertSame(StaleAnswers.NONE, answers.answer("k", new IllegalStateException("not I/O"), null, false));

    StaleAnswers ignoring = new StaleAnswers(StaleIfErrorConfig.builder("quote").maxAge(Duration.ofMinutes(1))
        .ignore(SocketTimeoutException.class).build(), "Client.quote", clock, events.bus());
    ignoring.remember("k", "remembered", null);
    assertSame(StaleAnswers.NONE, ignoring.answer("k", accessFailure(), null, false));
  }

  @Test
  void anAdaptiveLimiterIsThrottledByAFrameworkExceptionCausedByAThrottledOnType() {
    Throttling throttling = new Throttling(RateLimitConfig.builder("recs-api").permits(10).adaptive(true)
        .throttledOn(TooManyRequests.class).build(), Duration.ofSeconds(60), Clock.systemUTC());
    assertEquals(0, throttling.judge(new IllegalStateException("HTTP 429", new TooManyRequests())));
    assertEquals(Throttling.NOT_THROTTLED, throttling.judge(accessFailure()));

    Throttling byDefault = new Throttling(RateLimitConfig.builder("recs-api").permits(10).adaptive(true).build(),
        Duration.ofSeconds(60), Clock.systemUTC());
    assertEquals(Throttling.NOT_THROTTLED, byDefault.judge(new IllegalStateException("wrapped",
        new RateLimitedException("deeper", Duration.ZERO, null))), "a refusal counts as itself only");
  }

  /** A 429 as a user's own client maps it. */
  static final class TooManyRequests extends IOException {
    private static final long serialVersionUID = 1L;

    TooManyRequests() {
      super("429");
    }
  }
}
