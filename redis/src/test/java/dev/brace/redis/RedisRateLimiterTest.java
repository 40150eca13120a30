package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.CallKeys;
import dev.brace.runtime.generated.ResilientCall;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Shared token buckets against a real redis-server. */
class RedisRateLimiterTest {
  private static final Map<String, String> NONE = Map.of();

  /** Generous: exactness is the script's, and a command that times out may still have run. */
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

  /** A bucket that refills so slowly that none of it comes back during a test. */
  private static Stack<String> quota(Fleet machine, String name, int tokens) {
    return Stack.<String>builder("Quota.call")
        .rateLimit(name, r -> r.permits(tokens).per("1000h").backend("redis"))
        .build(machine.registry);
  }

  @Test
  void sixteenThreadsOnAThousandTokenBucketAdmitExactlyAThousand() throws Exception {
    try (Fleet machine = new Fleet(server, PATIENT, NONE);
        StatefulRedisConnection<String, String> inspect = machine.client.connect()) {
      Stack<String> stack = quota(machine, "quota", 1000);
      long scriptsBefore = scriptCalls(inspect);
      AtomicInteger admitted = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      ExecutorService threads = Executors.newFixedThreadPool(16);
      CountDownLatch go = new CountDownLatch(1);
      try {
        Future<?>[] done = new Future<?>[16];
        for (int t = 0; t < 16; t++) {
          done[t] = threads.submit(() -> {
            go.await();
            for (int i = 0; i < 100; i++) {
              try {
                stack.call(() -> "ok");
                admitted.incrementAndGet();
              } catch (RateLimitedException noToken) {
                refused.incrementAndGet();
              }
            }
            return null;
          });
        }
        go.countDown();
        for (Future<?> each : done) {
          each.get(30, TimeUnit.SECONDS);
        }
      } finally {
        threads.shutdownNow();
      }
      assertEquals(1000, admitted.get());
      assertEquals(600, refused.get());
      // One script per admission; the server lacked the script at first, so up to one call per
      // thread was answered NOSCRIPT and sent again with the script's text.
      long scripts = scriptCalls(inspect) - scriptsBefore;
      assertTrue(scripts >= 1600 && scripts <= 1600 + 16, "script calls for 1600 admissions: " + scripts);
      assertEquals(0, machine.registry.rateLimiter("quota").availablePermits());
      assertEquals(0, machine.count("backend.unavailable"));
    }
  }

  @Test
  void anInterruptedWaitGivesItsTokenBackOnlyWhileItIsTheLatestTake() throws Exception {
    try (Fleet machine = new Fleet(server, PATIENT, NONE);
        StatefulRedisConnection<String, String> inspect = machine.client.connect()) {
      Stack<String> stack = Stack.<String>builder("Quota.call")
          .rateLimit("give-back", r -> r.permits(1).per("10s").maxWait("60s").backend("redis"))
          .build(machine.registry);
      stack.call(() -> "first token");
      long owedAfterOne = owedMicros(inspect, "brace:ratelimit:give-back");

      java.util.concurrent.CompletableFuture<Throwable> waiter = new java.util.concurrent.CompletableFuture<>();
      Thread waiting = new Thread(() -> {
        try {
          stack.call(() -> "second token");
          waiter.complete(null);
        } catch (Throwable thrown) {
          waiter.complete(thrown);
        }
      });
      waiting.start();
      while (owedMicros(inspect, "brace:ratelimit:give-back") < owedAfterOne + 5_000_000) {
        Thread.onSpinWait();
      }
      waiting.interrupt();

      Throwable thrown = waiter.get(30, TimeUnit.SECONDS);
      assertTrue(thrown instanceof RateLimitedException, String.valueOf(thrown));
      assertTrue(thrown.getCause() instanceof InterruptedException);
      long owed = owedMicros(inspect, "brace:ratelimit:give-back");
      assertTrue(owed <= owedAfterOne, "the reserved token came back: owed " + owed + " us, after one take " + owedAfterOne);
    }
  }

  /** @return how far in the future (server time, microseconds) the bucket is full again */
  private static long owedMicros(StatefulRedisConnection<String, String> connection, String key) {
    String fullAt = connection.sync().get(key);
    java.util.List<String> time = connection.sync().time();
    long now = Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
    return fullAt == null ? 0 : Long.parseLong(fullAt) - now;
  }

  /** @return EVAL and EVALSHA calls the server has run, from INFO commandstats */
  private static long scriptCalls(StatefulRedisConnection<String, String> connection) {
    long calls = 0;
    for (String line : connection.sync().info("commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
        String field = line.substring(line.indexOf("calls=") + 6);
        calls += Long.parseLong(field.substring(0, field.indexOf(',')));
      }
    }
    return calls;
  }

  @Test
  void twoMachinesShareOneQuotaAndARefusalSaysWhenToComeBack() throws Exception {
    try (Fleet one = new Fleet(server, PATIENT, NONE);
        Fleet two = new Fleet(server, PATIENT, NONE)) {
      Stack<String> first = Stack.<String>builder("Quota.call")
          .rateLimit("quota-two", r -> r.permits(2).per("1h").backend("redis"))
          .build(one.registry);
      Stack<String> second = Stack.<String>builder("Quota.call")
          .rateLimit("quota-two", r -> r.permits(2).per("1h").backend("redis"))
          .build(two.registry);
      first.call(() -> "a");
      second.call(() -> "b");
      RateLimitedException refused = assertThrows(RateLimitedException.class, () -> first.call(() -> "c"));
      Duration retryAfter = refused.retryAfter().orElseThrow();
      assertTrue(retryAfter.compareTo(Duration.ofMinutes(29)) > 0 && retryAfter.compareTo(Duration.ofMinutes(31)) < 0,
          "the next token of 2 per hour is half an hour away: " + retryAfter);
      assertThrows(RateLimitedException.class, () -> second.call(() -> "d"));
    }
  }

  @Test
  void aCallWaitsUpToMaxWaitForTheTokenTheScriptReservedForIt() throws Exception {
    try (Fleet machine = new Fleet(server, RedisBackendOptions.defaults(), NONE)) {
      Stack<String> stack = Stack.<String>builder("Quota.call")
          .rateLimit("waiting", r -> r.permits(10).per("1s").burst(1).maxWait("500ms").backend("redis"))
          .build(machine.registry);
      stack.call(() -> "first");
      long started = System.nanoTime();
      stack.call(() -> "second");
      long waitedMillis = (System.nanoTime() - started) / 1_000_000;
      assertTrue(waitedMillis >= 60 && waitedMillis < 400, "waited about 100 ms for the next token: " + waitedMillis);
      assertEquals(1, machine.count("ratelimit.waited"));
    }
  }

  @Test
  void eachKeyHasItsOwnBucketAndIdleBucketsExpire() throws Exception {
    // Chosen by environment variable, as a deployment would.
    try (Fleet machine = new Fleet(server, PATIENT, Map.of("BRACE_RATELIMIT_PER_USER_BACKEND", "redis"));
        StatefulRedisConnection<String, String> inspect = machine.client.connect()) {
      ResilientCall guard = machine.registry.resolve(CallDefinition.builder("Quota.perUser")
          .with(RateLimitConfig.builder("per-user").permits(1).per("2s").key("{user}"))
          .build());
      assertEquals("ok", guard.call(() -> CallKeys.of(null, "alice"), () -> "ok", null));
      assertEquals("ok", guard.call(() -> CallKeys.of(null, "bob"), () -> "ok", null));
      assertThrows(RateLimitedException.class, () -> guard.call(() -> CallKeys.of(null, "alice"), () -> "ok", null));

      long ttl = inspect.sync().pttl("brace:ratelimit:per-user[alice]");
      assertTrue(ttl > 0 && ttl <= 3_000, "the bucket expires once it would be full again: " + ttl);
    }
  }
}
