package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.RecordedEvents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bucket's arithmetic on a manual clock: nothing here sleeps for real. */
class TokenBucketRateLimiterTest {

  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private TokenBucketRateLimiter limiter(int permits, Duration per, int burst, Duration maxWait) {
    return new TokenBucketRateLimiter(
        RateLimitConfigs.config(permits, per, burst, maxWait), clock, events.bus());
  }

  /** 10 per second, burst 10: one token every 100 ms. */
  private TokenBucketRateLimiter tenPerSecond(Duration maxWait) {
    return limiter(10, Duration.ofSeconds(1), 0, maxWait);
  }

  private static void drain(TokenBucketRateLimiter limiter, int tokens) {
    for (int i = 0; i < tokens; i++) {
      limiter.acquire();
    }
  }

  @Test
  void startsFullAtBurstAndThenRefusesWithTheTimeToTheNextToken() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    long start = clock.nanoTime();
    assertEquals(10, limiter.availablePermits());

    drain(limiter, 10);
    assertEquals(0, limiter.availablePermits());
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);

    assertEquals(Duration.ofMillis(100), refused.retryAfter().orElseThrow());
    assertNull(refused.getCause());
    assertEquals("rl", refused.instance());
    assertEquals("rl", limiter.name());
    assertEquals(start, clock.nanoTime());
  }

  @Test
  void retryAfterCountsTimeAlreadyPassedAndTheRefusalIsReported() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    drain(limiter, 10);
    clock.advance(Duration.ofMillis(30));

    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);

    assertEquals(Duration.ofMillis(70), refused.retryAfter().orElseThrow());
    Event event = events.last();
    assertEquals("ratelimit.rejected", event.kind());
    assertEquals("rl", event.instance());
    assertEquals(70L, event.attributes().get("retry_after_ms"));
  }

  @Test
  void refillIsExactAndCarriesThePartOfATokenNotYetEarned() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    drain(limiter, 10);

    clock.advance(Duration.ofMillis(250));
    assertEquals(2, limiter.availablePermits());
    drain(limiter, 2);

    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertEquals(Duration.ofMillis(50), refused.retryAfter().orElseThrow());
    clock.advance(Duration.ofMillis(50));
    limiter.acquire();
  }

  @Test
  void idleTimeNeverFillsBeyondBurst() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    drain(limiter, 3);
    clock.advance(Duration.ofHours(5));

    assertEquals(10, limiter.availablePermits());
    drain(limiter, 10);
    assertThrows(RateLimitedException.class, limiter::acquire);
  }

  @Test
  void aWaitWithinMaxWaitSucceedsAndSleepsExactlyUntilTheToken() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofMillis(200));
    drain(limiter, 10);
    clock.advance(Duration.ofMillis(40));
    long before = clock.nanoTime();

    limiter.acquire();

    assertEquals(Duration.ofMillis(60).toNanos(), clock.nanoTime() - before);
    Event event = events.last();
    assertEquals("ratelimit.waited", event.kind());
    assertEquals(60L, event.attributes().get("waited_ms"));
  }

  @Test
  void aTokenBeyondMaxWaitIsRefusedAtOnceWithoutWaiting() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofMillis(150));
    drain(limiter, 10);
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
    long before = clock.nanoTime();

    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);

    assertEquals(Duration.ofMillis(200), refused.retryAfter().orElseThrow());
    assertEquals(before, clock.nanoTime());
    // The refused call reserved nothing: the next slot is still 200 ms away.
    clock.advance(Duration.ofMillis(50));
    assertEquals(Duration.ofMillis(150).toNanos(), limiter.reserve());
  }

  @Test
  void waitersReserveSuccessiveSlotsInTheOrderTheyAsk() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 10);

    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
    assertEquals(Duration.ofMillis(200).toNanos(), limiter.reserve());
    assertEquals(Duration.ofMillis(300).toNanos(), limiter.reserve());
    clock.advance(Duration.ofMillis(250));
    // Queued callers own the tokens that have arrived meanwhile.
    assertEquals(0, limiter.availablePermits());
    assertEquals(Duration.ofMillis(150).toNanos(), limiter.reserve());
  }

  @Test
  void burstLargerThanTheRateAllowsThatManyAtOnceThenRefillsAtTheRate() {
    TokenBucketRateLimiter limiter = limiter(2, Duration.ofSeconds(1), 5, Duration.ZERO);
    assertEquals(5, limiter.availablePermits());
    drain(limiter, 5);
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertEquals(Duration.ofMillis(500), refused.retryAfter().orElseThrow());

    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, limiter.availablePermits());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(5, limiter.availablePermits());
  }

  @Test
  void anInterruptedWaitGivesTheTokenBackAndKeepsTheFlag() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 10);
    long before = clock.nanoTime();

    Thread.currentThread().interrupt();
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);

    assertInstanceOf(InterruptedException.class, refused.getCause());
    assertEquals(Duration.ofMillis(100), refused.retryAfter().orElseThrow());
    assertTrue(Thread.interrupted());
    assertEquals(before, clock.nanoTime());
    // Had the token been kept, the next caller would be second in line (200 ms).
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
  }

  @Test
  void anInterruptArrivingDuringTheWaitStopsItThere() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 10);
    limiter.reserve();
    long start = clock.nanoTime();
    Thread caller = Thread.currentThread();
    clock.scheduler().schedule(caller::interrupt, 50, TimeUnit.MILLISECONDS);

    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);

    assertTrue(Thread.interrupted());
    // Interrupted 50 ms into a 200 ms wait for the second slot.
    assertEquals(Duration.ofMillis(150), refused.retryAfter().orElseThrow());
    assertEquals(Duration.ofMillis(50).toNanos(), clock.nanoTime() - start);
    // The given-back slot (200 ms) is the next one again, not 300 ms.
    assertEquals(Duration.ofMillis(150).toNanos(), limiter.reserve());
  }

  @Test
  void aCancelledReservationFreesItsSlotButNeverOverfills() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 9);
    assertEquals(0, limiter.reserve());
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
    long latest = limiter.reserveToken();
    assertEquals(Duration.ofMillis(200).toNanos(), limiter.waitFor(latest));

    limiter.cancelReservation(latest);
    long again = limiter.reserveToken();
    assertEquals(Duration.ofMillis(200).toNanos(), limiter.waitFor(again));

    clock.advance(Duration.ofHours(1));
    limiter.cancelReservation(again);
    assertEquals(10, limiter.availablePermits());
    drain(limiter, 10);
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
  }

  /**
   * A token due exactly at the instant the caller read is taken without a wait: the caller's
   * instant still stands (it need not read the clock again) and no wait is reported.
   */
  @Test
  void aTokenDueExactlyAtTheCallersInstantIsTakenWithoutWaiting() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 10);
    clock.advance(Duration.ofMillis(100));
    long now = clock.nanoTime();

    assertFalse(limiter.acquireAt(now), "the token is there at that instant");
    assertEquals(now, clock.nanoTime());
    assertTrue(events.of("ratelimit.waited").isEmpty());

    assertTrue(limiter.acquireAt(now), "the next one is 100 ms away: waited for");
    assertEquals(now + Duration.ofMillis(100).toNanos(), clock.nanoTime());
  }

  /**
   * {@link System#nanoTime()} may return negative instants: a reservation given back on such a
   * clock frees exactly its own token, as on any other.
   */
  @Test
  void aCancelledReservationGivesBackOneTokenOnAClockOfNegativeInstants() {
    long offset = Long.MAX_VALUE / 2;
    ClockBehind negative = new ClockBehind(clock, offset);
    TokenBucketRateLimiter limiter = new TokenBucketRateLimiter(
        RateLimitConfigs.config(10, Duration.ofSeconds(1), 0, Duration.ofSeconds(1)), negative, events.bus());
    drain(limiter, 10);
    long now = negative.nanoTime();
    assertTrue(now < 0);
    assertEquals(now + Duration.ofMillis(100).toNanos(), limiter.reserveToken());
    long second = limiter.reserveToken();
    assertEquals(now + Duration.ofMillis(200).toNanos(), second);

    limiter.cancelReservation(second);

    assertEquals(now + Duration.ofMillis(200).toNanos(), limiter.reserveToken(), "the second token is free again, only it");
  }

  @Test
  void aReservationMadeAtAnInstantIsThatInstantExactlyWhenTheTokenIsThere() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 9);
    long now = clock.nanoTime();

    assertEquals(now, limiter.reserveTokenAt(now));
    long owed = limiter.reserveTokenAt(now);
    assertEquals(now + Duration.ofMillis(100).toNanos(), owed);
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.waitFor(owed));

    // The same bucket as reserveToken(): the owed token is the latest take, so it can be given back.
    limiter.cancelReservation(owed);
    assertEquals(Duration.ofMillis(100).toNanos(), limiter.reserve());
  }

  @Test
  void cancellingAReservationWithLaterOnesBehindItDropsItsToken() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 10);
    long first = limiter.reserveToken();
    assertEquals(Duration.ofMillis(200).toNanos(), limiter.reserve());

    limiter.cancelReservation(first);

    // Given back, the next caller would get the 200 ms instant already held: two tokens at once.
    assertEquals(Duration.ofMillis(300).toNanos(), limiter.reserve());
  }

  @Test
  void maxWaitZeroNeverReservesAFutureToken() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    drain(limiter, 10);
    assertThrows(RateLimitedException.class, limiter::reserve);
    clock.advance(Duration.ofMillis(100));
    assertEquals(0, limiter.reserve());
  }

  @Test
  void aBurstWhoseRefillTakesMonthsIsExact() {
    // 3.6 ms per token; refilling 2^31 - 1 tokens takes about 89 days.
    TokenBucketRateLimiter limiter =
        limiter(1_000_000, Duration.ofHours(1), Integer.MAX_VALUE, Duration.ZERO);
    assertEquals(Integer.MAX_VALUE, limiter.availablePermits());
    drain(limiter, 1000);
    assertEquals(Integer.MAX_VALUE - 1000, limiter.availablePermits());
    clock.advance(Duration.ofMillis(36));
    assertEquals(Integer.MAX_VALUE - 990, limiter.availablePermits());
    clock.advance(Duration.ofDays(200 * 365));
    assertEquals(Integer.MAX_VALUE, limiter.availablePermits());
  }

  @Test
  void aBucketTooDeepToRepresentIsCappedInsteadOfOverflowing() {
    // 2^31 - 1 tokens of 1000 days each would take 5.8 million years to refill.
    TokenBucketRateLimiter limiter =
        limiter(1, Duration.of(1000, ChronoUnit.DAYS), Integer.MAX_VALUE, Duration.ZERO);
    long tokens = limiter.availablePermits();
    assertEquals(TokenBucketRateLimiter.LONGEST_SPAN_NANOS / Duration.ofDays(1000).toNanos(), tokens);

    drain(limiter, (int) tokens);
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofDays(1)) > 0);
    assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofDays(1000)) <= 0);
    clock.advance(Duration.ofDays(200 * 365));
    assertEquals(tokens, limiter.availablePermits());
  }

  /**
   * A bucket's depth is {@code burst} intervals exactly wherever that fits the longest span: two
   * tokens of about 36 years each hold 73 years less a nanosecond, and the third caller is told
   * the next token is one interval away, to the nanosecond.
   */
  @Test
  void aBucketJustWithinTheLongestSpanIsBurstIntervalsExactly() {
    long interval = TokenBucketRateLimiter.LONGEST_SPAN_NANOS / 2;
    TokenBucketRateLimiter limiter = limiter(1, Duration.ofNanos(interval), 2, Duration.ZERO);
    drain(limiter, 2);
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertEquals(Duration.ofNanos(interval), refused.retryAfter().orElseThrow());
  }

  @Test
  void aPeriodOfCenturiesRefusesWithAPositiveRetryAfter() {
    TokenBucketRateLimiter limiter =
        limiter(1, Duration.of(100_000, ChronoUnit.DAYS).multipliedBy(10), 1, Duration.ZERO);
    limiter.acquire();
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertFalse(refused.retryAfter().orElseThrow().isNegative());
    assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofDays(365 * 50)) > 0);
  }

  @Test
  void aRateBeyondOneTokenPerNanosecondStillLimits() {
    TokenBucketRateLimiter limiter =
        limiter(Integer.MAX_VALUE, Duration.ofNanos(1), 3, Duration.ZERO);
    drain(limiter, 3);
    assertThrows(RateLimitedException.class, limiter::acquire);
    clock.advance(Duration.ofNanos(1));
    limiter.acquire();
  }

  @Test
  void aTokenTakenOnlyIfThereNowIsTakenLikeAnyOtherAndNothingIsReservedWhenThereIsNone() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ofSeconds(1));
    drain(limiter, 9);

    assertTrue(limiter.takeNow(clock.nanoTime()), "the tenth token is there");
    assertEquals(0, limiter.availablePermits());
    assertFalse(limiter.takeNow(clock.nanoTime()), "the eleventh is 100 ms away");
    assertFalse(limiter.takeNow(clock.nanoTime()));

    // Nothing was reserved by asking: the next reservation is the first one to come, not a later one.
    assertEquals(clock.nanoTime() + Duration.ofMillis(100).toNanos(), limiter.reserveToken());
    assertTrue(events.of("ratelimit.rejected").isEmpty(), "asking is never a refusal");
  }

  @Test
  void aTokenOnlyIfThereNowIsNoneBeyondMaxWaitAndIsNotRefused() {
    TokenBucketRateLimiter limiter = tenPerSecond(Duration.ZERO);
    drain(limiter, 10);

    assertFalse(limiter.takeNow(clock.nanoTime()));

    assertTrue(events.of("ratelimit.rejected").isEmpty());
    clock.advance(Duration.ofMillis(100));
    assertTrue(limiter.takeNow(clock.nanoTime()), "the token earned since is there");
  }
}
