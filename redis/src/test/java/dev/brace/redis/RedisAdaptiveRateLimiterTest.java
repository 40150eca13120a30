package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An adaptive limiter in Redis: a throttle seen by one machine slows the whole fleet. */
class RedisAdaptiveRateLimiterTest {
  private static final RedisBackendOptions PATIENT = RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(2));

  private static RedisServer server;

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  /** What a client maps an HTTP 429 with {@code Retry-After} to. */
  static final class TooManyRequests extends RuntimeException implements RetryAfterHint {
    private final Duration hint;

    TooManyRequests(Duration hint) {
      super("429");
      this.hint = hint;
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.of(hint);
    }
  }

  private static Stack<String> adaptive(Fleet machine, String name) {
    return Stack.<String>builder("Quota.call")
        .rateLimit(name, r -> r.permits(100).per("1s").maxWait("200ms").adaptive(true).throttledOn(TooManyRequests.class).backend("redis"))
        .build(machine.registry);
  }

  @Test
  void aThrottleSeenByOneMachineHalvesTheFleetsRateAndBlocksEveryMachineForTheHint() throws Exception {
    try (Fleet first = new Fleet(server, PATIENT, Map.of());
        Fleet second = new Fleet(server, PATIENT, Map.of())) {
      Stack<String> a = adaptive(first, "fleet-rate");
      Stack<String> b = adaptive(second, "fleet-rate");
      assertEquals("ok", b.call(() -> "ok"));

      assertThrows(TooManyRequests.class, () -> a.call(() -> {
        throw new TooManyRequests(Duration.ofSeconds(30));
      }), "the throttling failure reaches the caller");

      assertEquals(50.0, second.registry.rateLimiter("fleet-rate").currentRate(), "the other machine sees the halved rate");
      RateLimitedException blocked = assertThrows(RateLimitedException.class, () -> b.call(() -> "never"));
      long retryAfter = blocked.retryAfter().orElseThrow().toMillis();
      assertTrue(retryAfter > 28_000 && retryAfter <= 30_000, "blocked for the hint: " + retryAfter + " ms");
      assertTrue(first.count("ratelimit.rate_changed") >= 1);
    }
  }

  @Test
  void successesRideAlongWithTheNextTakeAndRaiseTheRate() throws Exception {
    try (Fleet machine = new Fleet(server, PATIENT, Map.of())) {
      Stack<String> stack = adaptive(machine, "creeping-rate");
      assertThrows(TooManyRequests.class, () -> stack.call(() -> {
        throw new TooManyRequests(Duration.ofMillis(1));
      }));
      Thread.sleep(5);
      assertEquals(50.0, machine.registry.rateLimiter("creeping-rate").currentRate());
      for (int i = 0; i < 3; i++) {
        stack.call(() -> "ok");
      }
      // The first take after the throttle carries no success yet; the next two carry one each.
      assertEquals(52.0, machine.registry.rateLimiter("creeping-rate").currentRate(), 1e-9);
    }
  }
}
