package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The AIMD token bucket on manual time: backs off on throttling, blocks for a hint, creeps back. */
class AdaptiveRateLimiterTest {
  private final RecordedEvents events = new RecordedEvents();
  private final ManualTimeSource clock = new ManualTimeSource();

  private TokenBucketRateLimiter limiter(RateLimitConfig.Builder config) {
    return new TokenBucketRateLimiter(config.build(), clock, events.bus());
  }

  private static RateLimitConfig.Builder adaptive(int permits) {
    return RateLimitConfig.builder("rl").permits(permits).per("1s").adaptive(true);
  }

  /** @return the calls admitted in {@code span}, one tried every {@code step} */
  private static int admitted(TokenBucketRateLimiter limiter, ManualTimeSource clock, Duration span, Duration step) {
    int admitted = 0;
    for (long t = 0; t < span.toNanos(); t += step.toNanos()) {
      try {
        limiter.acquire();
        admitted++;
      } catch (RateLimitedException refused) {
        // counted by what was admitted
      }
      clock.advance(step);
    }
    return admitted;
  }

  @Test
  void aThrottleHalvesTheRateDownToMinPermitsAndSuccessesBringItBack() {
    TokenBucketRateLimiter limiter = limiter(adaptive(100).minPermits(20).increase(10));
    assertEquals(100, limiter.currentRate());
    limiter.throttled(0);
    assertEquals(50, limiter.currentRate());
    limiter.throttled(0);
    limiter.throttled(0);
    assertEquals(20, limiter.currentRate(), "never below minPermits");
    for (int i = 0; i < 5; i++) {
      limiter.succeeded();
    }
    assertEquals(70, limiter.currentRate());
    for (int i = 0; i < 5; i++) {
      limiter.succeeded();
    }
    assertEquals(100, limiter.currentRate(), "never above permits");
  }

  @Test
  void theDefaultsAreATenthForTheFloorAndAHundredthForEachSuccess() {
    TokenBucketRateLimiter limiter = limiter(adaptive(200));
    for (int i = 0; i < 10; i++) {
      limiter.throttled(0);
    }
    assertEquals(20, limiter.currentRate());
    limiter.succeeded();
    assertEquals(22, limiter.currentRate());
  }

  @Test
  void aLowerRateAdmitsFewerCallsAndNoBurstIsFreedByTheDecrease() {
    TokenBucketRateLimiter limiter = limiter(adaptive(100).burst(1));
    assertEquals(100, admitted(limiter, clock, Duration.ofSeconds(1), Duration.ofMillis(1)));
    limiter.throttled(0);
    limiter.throttled(0);
    assertEquals(25, admitted(limiter, clock, Duration.ofSeconds(1), Duration.ofMillis(1)));
  }

  @Test
  void aThrottleWithoutAHintTakesNoTokensBeyondWhatTheLowerRateHolds() {
    TokenBucketRateLimiter limiter = limiter(adaptive(10));
    assertEquals(10, limiter.availablePermits());

    limiter.throttled(0);

    assertEquals(5, limiter.availablePermits(), "the same span at half the rate: half the tokens, none blocked");
  }

  @Test
  void aHintAdmitsNothingUntilItHasPassed() {
    TokenBucketRateLimiter limiter = limiter(adaptive(100));
    limiter.throttled(Duration.ofMillis(500).toNanos());
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertEquals(Duration.ofMillis(500), refused.retryAfter().orElseThrow());
    clock.advance(Duration.ofMillis(499));
    assertThrows(RateLimitedException.class, limiter::acquire);
    clock.advance(Duration.ofMillis(1));
    limiter.acquire();
    assertThrows(RateLimitedException.class, limiter::acquire, "then one token per interval of the lower rate");
    clock.advance(Duration.ofMillis(20));
    limiter.acquire();
  }

  /**
   * On a clock that moves between any two reads, as {@link System#nanoTime()} does, a hint blocks
   * the bucket once and returns: it does not chase the clock.
   */
  @Test
  void aHintOnAMovingClockBlocksOnceAndReturns() {
    dev.brace.runtime.TimeSource ticking = new dev.brace.runtime.TimeSource() {
      @Override
      public long nanoTime() {
        clock.advance(Duration.ofNanos(1));
        return clock.nanoTime();
      }

      @Override
      public void sleep(Duration duration) throws InterruptedException {
        clock.sleep(duration);
      }
    };
    TokenBucketRateLimiter limiter = new TokenBucketRateLimiter(adaptive(100).build(), ticking, events.bus());
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> limiter.throttled(Duration.ofMillis(500).toNanos()));
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofMillis(499)) > 0,
        "blocked for the hint: " + refused.retryAfter());
  }

  /**
   * At a rate so slow that one token takes longer than the longest span a bucket holds (about 73
   * years), the interval is that span exactly, as a fixed limiter's is: the second caller is told
   * to come back after it, to the nanosecond.
   */
  @Test
  void anIntervalBeyondTheLongestSpanIsThatSpanExactly() {
    TokenBucketRateLimiter limiter = limiter(
        RateLimitConfig.builder("rl").permits(1).per(Duration.ofDays(36_500)).maxWait(Duration.ZERO).adaptive(true));
    limiter.acquire();
    RateLimitedException refused = assertThrows(RateLimitedException.class, limiter::acquire);
    assertEquals(Duration.ofNanos(TokenBucketRateLimiter.LONGEST_SPAN_NANOS), refused.retryAfter().orElseThrow());
  }

  @Test
  void aFixedLimiterIgnoresTheSignals() {
    TokenBucketRateLimiter limiter = limiter(RateLimitConfig.builder("rl").permits(10));
    limiter.throttled(Duration.ofSeconds(5).toNanos());
    assertEquals(10, limiter.currentRate());
    limiter.acquire();
  }

  @Test
  void rateChangesAreReportedAtMostEveryHundredMilliseconds() {
    TokenBucketRateLimiter limiter = limiter(adaptive(100));
    limiter.throttled(0);
    limiter.throttled(0);
    clock.advance(Duration.ofMillis(100));
    limiter.succeeded();
    List<Event> changes = events.of("ratelimit.rate_changed");
    assertEquals(2, changes.size());
    assertEquals(100.0, changes.get(0).attributes().get("from"));
    assertEquals(50.0, changes.get(0).attributes().get("to"));
    assertEquals(50.0, changes.get(1).attributes().get("from"), "from: what the previous event reported");
    assertEquals(26.0, changes.get(1).attributes().get("to"));
  }

  @Test
  void throttlingIsAMatchingFailureOrAHintCappedByMaxRetryAfter() {
    Throttling throttling = new Throttling(
        adaptive(10).throttledOn(IllegalStateException.class).build(), Duration.ofSeconds(2), Clock.systemUTC());
    assertEquals(Throttling.NOT_THROTTLED, throttling.judge(new IOException("500")));
    assertEquals(0, throttling.judge(new IllegalStateException("429")));
    assertEquals(Duration.ofSeconds(1).toNanos(),
        throttling.judge(new RateLimitedException("deeper", Duration.ofSeconds(1), null)));
    assertEquals(Duration.ofSeconds(2).toNanos(),
        throttling.judge(new java.util.concurrent.CompletionException(
            new RateLimitedException("deeper", Duration.ofMinutes(5), null))), "capped, looked through");
    Throttling byDefault = new Throttling(adaptive(10).build(), Duration.ofSeconds(60), Clock.systemUTC());
    assertTrue(byDefault.judge(RateLimitedException.backendUnavailable("deeper", "redis", null)) >= 0,
        "RateLimitedException by default, even without a hint");
  }
  @Test
  void aFrameworksRetryAfterThrottlesForItsTimeCappedAndAMalformedOneDoesNot() {
    Instant now = Instant.parse("2026-03-02T10:00:00Z");
    Throttling throttling = new Throttling(adaptive(10).build(), Duration.ofSeconds(5), Clock.fixed(now, ZoneOffset.UTC));
    assertEquals(Duration.ofSeconds(2).toNanos(), throttling.judge(feignTooManyRequests("2")));
    assertEquals(Duration.ofSeconds(3).toNanos(), throttling.judge(feignTooManyRequests("Mon, 02 Mar 2026 10:00:03 GMT")),
        "an HTTP date, on the wall clock it was given");
    assertEquals(Duration.ofSeconds(5).toNanos(), throttling.judge(feignTooManyRequests("3600")), "capped by maxRetryAfter");
    assertEquals(Throttling.NOT_THROTTLED, throttling.judge(feignTooManyRequests("whenever")),
        "malformed, and a FeignException is not in throttledOn");
    assertEquals(Throttling.NOT_THROTTLED, throttling.judge(feignTooManyRequests("Mon, 02 Mar 2026 09:00:00 GMT")),
        "a date past asks for no pause");
  }

  private static feign.FeignException feignTooManyRequests(String retryAfter) {
    feign.Request request = feign.Request.create(feign.Request.HttpMethod.GET, "http://127.0.0.1/items/1", Map.of(),
        new byte[0], StandardCharsets.UTF_8, null);
    return new feign.FeignException.TooManyRequests("429", request, new byte[0], Map.of("Retry-After", List.of(retryAfter)));
  }
}
