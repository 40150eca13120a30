package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Retry;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The retry schedule at its edges: a call's retry run decided by settings other than those it
 * began under (a live reconfiguration), delays too long to count in nanoseconds, and a jitter
 * range one nanosecond wide.
 */
class RetryPolicyEdgesTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();

  private RetryPolicy decorrelated(String delay, String maxDelay) {
    return decorrelated(RetryConfig.builder("reads").delay(delay).maxDelay(maxDelay));
  }

  private RetryPolicy decorrelated(RetryConfig.Builder config) {
    return new RetryPolicy(config.jitter(Retry.Jitter.DECORRELATED).build(), "Client.get", clock, events.bus(), null);
  }

  @Test
  void aDecorrelatedRunThatBeganUnderAShorterDelayWaitsAtLeastTheNewDelay() {
    RetryRun run = decorrelated("10ms", "1s").continuing(null);
    RetryPolicy longer = decorrelated("1s", "10s");
    // Three times the previous wait (10 ms) is below the new delay: the new delay is the wait.
    assertEquals(1000 * MS, longer.backoff(longer.continuing(run), 1, new IOException("down")));
  }

  @Test
  void aDecorrelatedDelayBeyondTheNanosecondRangeSaturatesRatherThanFailing() {
    Duration forAges = Duration.ofDays(200_000);
    RetryPolicy policy = decorrelated(RetryConfig.builder("reads").delay(forAges).maxDelay(forAges));
    RetryRun run = policy.continuing(null);
    assertEquals(Long.MAX_VALUE, policy.backoff(run, 1, new IOException("down")));
    assertEquals(Long.MAX_VALUE, policy.backoff(run, 2, new IOException("down")));
  }

  @Test
  void aFullJitterDrawsFromZeroToTheCapBothIncludedEvenOneNanosecondWide() {
    RetryPolicy policy = new RetryPolicy(RetryConfig.builder("reads").delay("1ns").jitter(Retry.Jitter.FULL).build(),
        "Client.get", clock, events.bus(), null, new SplittableRandom(7));
    Set<Long> drawn = new TreeSet<>();
    for (int i = 0; i < 200; i++) {
      drawn.add(policy.backoff(policy.continuing(null), 1, new IOException("down")));
    }
    assertEquals(Set.of(0L, 1L), drawn);
  }
}
