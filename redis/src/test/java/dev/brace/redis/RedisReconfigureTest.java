package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Redis-backed limiters and breakers take new settings while they run, and keep the state the
 * fleet shares in Redis; machines that hold different settings for a while (a rolling change) each
 * apply their own to every call, on one state.
 */
class RedisReconfigureTest {
  /** Generous: exactness is the script's, and a command that times out may still have run. */
  private static final RedisBackendOptions PATIENT = RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(10));

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

  /** A quota in Redis whose permits the environment sets; it refills too slowly to matter here. */
  private static Stack<String> quota(Fleet machine, String name) {
    return Stack.<String>builder("Quota.call")
        .rateLimit(name, r -> r.permits(1).per("1000h").backend("redis"))
        .build(machine.registry);
  }

  private static Map<String, String> permits(String variable, int permits) {
    return Map.of(variable, Integer.toString(permits));
  }

  private static int admitted(Stack<String> stack, int calls) throws Exception {
    int admitted = 0;
    for (int i = 0; i < calls; i++) {
      try {
        stack.call(() -> "ok");
        admitted++;
      } catch (RateLimitedException noToken) {
        // Counted by omission.
      }
    }
    return admitted;
  }

  @Test
  void raisedPermitsApplyFromTheNextCallAndTheBucketInRedisIsKept() throws Exception {
    String permits = "BRACE_RATELIMIT_LIVE_QUOTA_PERMITS";
    try (Fleet machine = new Fleet(server, PATIENT, permits(permits, 10))) {
      Stack<String> stack = quota(machine, "live-quota");
      assertEquals(5, admitted(stack, 5));
      assertEquals(5, RedisFaultTest.tokensTaken(server, "brace:ratelimit:live-quota", 100L * 3600 * 1_000_000));

      machine.registry.reconfigure(permits(permits, 20), Map.of());

      assertEquals("20", machine.registry.settings("ratelimit", "live-quota").get("permits"));
      Event changed = machine.events.stream().filter(e -> e.kind().equals("config.changed")).findFirst().orElseThrow();
      assertEquals("permits", changed.attributes().get("property"));
      // Half the burst was taken and the burst follows the permits: half of the new one is left.
      assertEquals(10, machine.registry.rateLimiter("live-quota").availablePermits());
      assertEquals(10, admitted(stack, 30), "the new quota, less what was taken before");
      assertEquals(0, machine.count("backend.unavailable"));
    }
  }

  @Test
  void aLoweredQuotaAppliesFromTheNextCallToo() throws Exception {
    String permits = "BRACE_RATELIMIT_LOWERED_QUOTA_PERMITS";
    try (Fleet machine = new Fleet(server, PATIENT, permits(permits, 20))) {
      Stack<String> stack = quota(machine, "lowered-quota");
      assertEquals(10, admitted(stack, 10));
      machine.registry.reconfigure(permits(permits, 4), Map.of());
      assertEquals(2, admitted(stack, 10), "half of the new burst of 4 was left");
    }
  }

  /**
   * A rolling change: one machine already runs 20 permits, the other still 10, on one bucket. Each
   * take spends the share of the bucket its caller's settings say (a tenth for the old machine, a
   * twentieth for the new one), so the bucket stays one and what the fleet admits lies between the
   * two quotas, following the mix of calls.
   */
  @Test
  void twoRegistriesHoldingDifferentPermitsShareOneBucketEachTakingByItsOwnSettings() throws Exception {
    try (Fleet old = new Fleet(server, PATIENT, permits("BRACE_RATELIMIT_ROLLING_QUOTA_PERMITS", 10));
        Fleet upgraded = new Fleet(server, PATIENT, permits("BRACE_RATELIMIT_ROLLING_QUOTA_PERMITS", 20))) {
      Stack<String> onOld = quota(old, "rolling-quota");
      Stack<String> onUpgraded = quota(upgraded, "rolling-quota");

      assertEquals(5, admitted(onOld, 5), "half of the old machine's quota of 10");
      assertEquals(5, old.registry.rateLimiter("rolling-quota").availablePermits());
      assertEquals(10, upgraded.registry.rateLimiter("rolling-quota").availablePermits(), "half of 20, read by the new settings");

      assertEquals(10, admitted(onUpgraded, 30), "the half left, in the new machine's tokens");
      assertEquals(0, admitted(onOld, 5), "one bucket: the old machine finds it empty too");
      assertEquals(0, old.registry.rateLimiter("rolling-quota").availablePermits());
      // 15 in all: more than the old quota of 10, less than the new one of 20.
    }
  }

  /** A breaker in classic mode whose threshold the environment sets. */
  private static Stack<String> guarded(Fleet machine, String name) {
    return Stack.<String>builder("Api.call")
        .circuitBreaker(name, b -> b.failureThreshold(100).resetTimeout("1h").backend("redis"))
        .build(machine.registry);
  }

  private static String fail() throws IOException {
    throw new IOException("dependency down");
  }

  private static void failures(Stack<String> stack, int count) {
    for (int i = 0; i < count; i++) {
      assertThrows(IOException.class, () -> stack.call(RedisReconfigureTest::fail));
    }
  }

  @Test
  void aLoweredFailureThresholdJudgesTheNextOutcomeAgainstTheFailuresCountedInRedis() throws Exception {
    String threshold = "BRACE_CIRCUITBREAKER_LIVE_API_FAILURE_THRESHOLD";
    try (Fleet machine = new Fleet(server, PATIENT, Map.of(threshold, "5"))) {
      Stack<String> stack = guarded(machine, "live-api");
      failures(stack, 3);
      assertEquals(3, RedisFaultTest.hashLong(server, "brace:circuit:live-api", "failures"));

      machine.registry.reconfigure(Map.of(threshold, "4"), Map.of());

      assertEquals(CircuitState.CLOSED, machine.registry.circuitBreaker("live-api").state(), "reconfiguring judges nothing");
      failures(stack, 1);
      assertEquals(CircuitState.OPEN, machine.registry.circuitBreaker("live-api").state(), "4 counted failures reach the new threshold");
      Event opened = machine.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals(4, opened.attributes().get("failure_threshold"));

      // An OPEN circuit stays OPEN, with its cooldown, whatever the new settings.
      machine.registry.reconfigure(Map.of(threshold, "50", "BRACE_CIRCUITBREAKER_LIVE_API_RESET_TIMEOUT", "1s"), Map.of());
      CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> stack.call(() -> "x"));
      assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofMinutes(59)) > 0, "the cooldown it opened with");
    }
  }

  /** Rate mode: opens at half the last outcomes failing, once four are in a window of ten seconds. */
  private static Map<String, String> rateMode(String name, String window, String failureRate) {
    String prefix = "BRACE_CIRCUITBREAKER_" + name + "_";
    Map<String, String> environment = new HashMap<>();
    environment.put(prefix + "FAILURE_RATE", failureRate);
    environment.put(prefix + "MINIMUM_CALLS", "4");
    environment.put(prefix + "WINDOW", window);
    return environment;
  }

  @Test
  void aNewRateKeepsTheWindowsCountsAndANewWindowStartsItAnew() throws Exception {
    try (Fleet kept = new Fleet(server, PATIENT, rateMode("KEPT_WINDOW_API", "10s", "0.9"));
        Fleet restarted = new Fleet(server, PATIENT, rateMode("RESTARTED_WINDOW_API", "10s", "0.9"))) {
      Stack<String> keeps = guarded(kept, "kept-window-api");
      Stack<String> restarts = guarded(restarted, "restarted-window-api");
      failures(keeps, 3);
      failures(restarts, 3);

      // The same shape of window: the three failures stay, and a success makes four calls, three
      // failed: 0.75, below the old rate, at or above the new one.
      kept.registry.reconfigure(rateMode("KEPT_WINDOW_API", "10s", "0.5"), Map.of());
      assertEquals("ok", keeps.call(() -> "ok"));
      assertEquals(CircuitState.OPEN, kept.registry.circuitBreaker("kept-window-api").state());

      // Another window span: its counts start anew, as a local breaker's do.
      restarted.registry.reconfigure(rateMode("RESTARTED_WINDOW_API", "20s", "0.5"), Map.of());
      assertEquals("ok", restarts.call(() -> "ok"));
      assertEquals(CircuitState.CLOSED, restarted.registry.circuitBreaker("restarted-window-api").state(),
          "one outcome in the new window, fewer than the minimum of four");
      failures(restarts, 3);
      assertEquals(CircuitState.OPEN, restarted.registry.circuitBreaker("restarted-window-api").state(),
          "four outcomes in the new window, three failed");
    }
  }

  /** During a rolling change each outcome is judged by the threshold of the machine that records it. */
  @Test
  void twoRegistriesHoldingDifferentThresholdsJudgeTheirOwnOutcomesOnOneCircuit() throws Exception {
    String threshold = "BRACE_CIRCUITBREAKER_ROLLING_API_FAILURE_THRESHOLD";
    try (Fleet lenient = new Fleet(server, PATIENT, Map.of(threshold, "10"));
        Fleet strict = new Fleet(server, PATIENT, Map.of(threshold, "4"))) {
      Stack<String> onLenient = guarded(lenient, "rolling-api");
      Stack<String> onStrict = guarded(strict, "rolling-api");
      failures(onLenient, 5);
      assertEquals(CircuitState.CLOSED, lenient.registry.circuitBreaker("rolling-api").state(), "five failures, below ten");

      failures(onStrict, 1);
      assertEquals(CircuitState.OPEN, lenient.registry.circuitBreaker("rolling-api").state(),
          "the sixth failure, recorded by the machine whose threshold is four, opens the circuit for both");
      assertThrows(CircuitOpenException.class, () -> onLenient.call(() -> "x"));
      assertEquals(1, strict.count("circuit.opened"));
    }
  }

  @Test
  void anAdaptiveLimitersLearntRateIsKeptWithinItsNewPermits() throws Exception {
    String permits = "BRACE_RATELIMIT_LIVE_ADAPTIVE_PERMITS";
    try (Fleet machine = new Fleet(server, PATIENT, permits(permits, 100))) {
      Stack<String> stack = Stack.<String>builder("Quota.call")
          .rateLimit("live-adaptive", r -> r.permits(1).per("1s").adaptive(true).backend("redis"))
          .build(machine.registry);
      assertEquals("ok", stack.call(() -> "ok"));
      assertEquals(100.0, machine.registry.rateLimiter("live-adaptive").currentRate());

      machine.registry.reconfigure(permits(permits, 40), Map.of());

      assertEquals(40.0, machine.registry.rateLimiter("live-adaptive").currentRate(), "the new permits bound the fleet's rate");
      assertEquals("ok", stack.call(() -> "ok"));
      assertEquals(40.0, Double.parseDouble((String) server.command("HGET", "brace:ratelimit-adaptive:live-adaptive", "rate")),
          "and the next take keeps it there");
    }
  }
}
