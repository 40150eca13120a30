package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A caller that takes a token while new settings replace the bucket: the old bucket is frozen from
 * the moment the switch begins, and the caller takes its token from the new one. The switch reads
 * the clock once, just after freezing the old bucket; the clock starts the caller there.
 */
class TokenBucketFrozenTakeTest {
  private final RecordedEvents events = new RecordedEvents();
  private final InterleavingClock clock = new InterleavingClock();

  /**
   * The real caller cannot end before the switch does; the tenth of a second only bounds how long
   * the switch lets it try, so that a caller let through by the frozen bucket is seen.
   */
  @Test
  void aCallerThatMeetsTheBucketFrozenForNewSettingsTakesItsTokenFromTheNewOne() throws Exception {
    TokenBucketRateLimiter limiter = new TokenBucketRateLimiter(
        RateLimitConfigs.config(10, Duration.ofSeconds(1), 10, Duration.ZERO), clock, events.bus());
    CompletableFuture<Boolean> caller = new CompletableFuture<>();
    clock.beforeNextReadReturns(() -> {
      new Thread(() -> caller.complete(limiter.acquireAt(0))).start();
      try {
        caller.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException expected) {
        // Waiting for the new bucket, as it should.
      } catch (Exception unexpected) {
        throw new AssertionError(unexpected);
      }
    });

    limiter.reconfigure(RateLimitConfigs.config(10, Duration.ofSeconds(1), 10, Duration.ZERO));

    assertFalse(caller.get(10, TimeUnit.SECONDS), "a token was there: no wait");
    assertEquals(9, limiter.availablePermits(), "the caller's token came out of the new bucket");
  }
}
