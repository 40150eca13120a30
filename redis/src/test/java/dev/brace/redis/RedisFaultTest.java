package dev.brace.redis;

import static dev.brace.redis.Callers.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.redis.Callers.Call;
import dev.brace.redis.Callers.Outcome;
import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code brace-redis} against a real redis-server that is killed and restarted, frozen with
 * {@code SIGSTOP} past the command timeout, or made to drop a connection while a script is in
 * flight, while threads keep calling. Each test checks, with real time:
 *
 * <ul>
 *   <li>no call takes longer than the command timeout plus the policy's own wait (here none), with
 *       {@link #SLACK_MILLIS} for a loaded machine;
 *   <li>the configured fallback is what happens: with {@code LOCAL} every call during the outage is
 *       decided here (admitted or refused by the local bucket), with {@code REFUSE} every one is
 *       refused naming the backend;
 *   <li>{@code backend.unavailable} and {@code backend.recovered} exactly once per outage;
 *   <li>while Redis is up, admissions stay within the quota (and, refusing, every admission is a
 *       token taken in Redis, and every token taken in Redis but not admitted is one whose command
 *       failed under the caller);
 *   <li>nothing is a failure of the protected dependency: a breaker fed only successes never opens,
 *       and the failures a breaker counts in Redis are at most the delegate's.
 * </ul>
 *
 * Quick by default (about 15 s); {@code -Dreliability.long=true} keeps each outage and each stretch
 * up around longer.
 */
class RedisFaultTest {
  private static final boolean LONG = Boolean.getBoolean("reliability.long");
  /** Well above what a loaded two-core machine makes a healthy server take, or outages appear that no test made. */
  private static final Duration TIMEOUT = Duration.ofMillis(500);
  /** Room for a loaded two-core machine; timeout plus slack stays well below a freeze (2 s). */
  private static final long SLACK_MILLIS = 500;
  private static final long UP_MILLIS = LONG ? 3_000 : 400;
  private static final long OUTAGE_MILLIS = LONG ? 10_000 : 2_000;
  private static final int QUOTA = 100;
  /** A quota of {@link #QUOTA} per 1000 h: one token every 10 hours, so none comes back during a test. */
  private static final long INTERVAL_MICROS = 1000L * 3600 * 1_000_000 / QUOTA;
  private static final RedisBackendOptions OPTIONS =
      RedisBackendOptions.defaults().withCommandTimeout(TIMEOUT).withRecheckInterval(Duration.ofMillis(100));
  /** How long a connection-drop test holds every command in the server. */
  private static final long HOLD_MILLIS = 1_000;
  /** For a connection dropped mid-script: the script surely still in flight when it drops. */
  private static final RedisBackendOptions PATIENT_REFUSING =
      OPTIONS.withCommandTimeout(Duration.ofSeconds(2)).withWhenUnavailable(WhenUnavailable.REFUSE);

  private RedisServer server;

  @BeforeEach
  void startRedis() {
    server = RedisServer.start();
  }

  @AfterEach
  void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  /** What is done to the server, and how it ends. */
  enum Fault {
    KILLED_AND_RESTARTED {
      @Override
      void begin(RedisServer server) {
        server.stop();
      }

      @Override
      void end(RedisServer server) {
        server.restart();
      }
    },
    PAUSED_PAST_THE_COMMAND_TIMEOUT {
      @Override
      void begin(RedisServer server) {
        server.pause();
      }

      @Override
      void end(RedisServer server) {
        server.resume();
      }
    };

    /** Returns once Redis surely cannot answer. */
    abstract void begin(RedisServer server);

    abstract void end(RedisServer server);
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
      "KILLED_AND_RESTARTED, LOCAL", "KILLED_AND_RESTARTED, REFUSE",
      "PAUSED_PAST_THE_COMMAND_TIMEOUT, LOCAL", "PAUSED_PAST_THE_COMMAND_TIMEOUT, REFUSE"})
  void callersRideOutAnOutageAsConfigured(Fault fault, WhenUnavailable mode) throws Exception {
    long began = System.nanoTime();
    try (Fleet machine = new Fleet(server, OPTIONS.withWhenUnavailable(mode), Map.of())) {
      Stack<String> quota = Stack.<String>builder("Faults.call")
          .circuitBreaker("fault-breaker", b -> b.failureThreshold(2).backend("redis"))
          .rateLimit("fault-quota", r -> r.permits(QUOTA).per("1000h").backend("redis"))
          .build(machine.registry);
      Stack<String> failing = Stack.<String>builder("Faults.failing")
          .circuitBreaker("fault-failing", b -> b.failureThreshold(1_000_000).backend("redis"))
          .build(machine.registry);

      Callers succeeding = new Callers("succeeding", quota, 2, () -> "ok");
      Callers failingCallers = new Callers("failing", failing, 1, RedisFaultTest::dependencyDown);
      Thread.sleep(UP_MILLIS);
      // Calls that ended before the fault was set off were decided by Redis; calls that started
      // after it had taken hold could not be.
      Instant faultSetOff = Instant.now();
      fault.begin(server);
      Instant faultBegan = Instant.now();
      Thread.sleep(OUTAGE_MILLIS);
      Instant faultEnded = Instant.now();
      fault.end(server);
      Instant recovered = machine.awaitFirst("backend.recovered");
      Thread.sleep(UP_MILLIS);
      List<Call> calls = succeeding.stop();
      List<Call> failingCalls = failingCallers.stop();

      // Bounded calls.
      long bound = TIMEOUT.toMillis() + SLACK_MILLIS;
      long slowest = Math.max(Callers.slowestMillis(calls), Callers.slowestMillis(failingCalls));
      assertTrue(slowest <= bound, "slowest call " + slowest + " ms, bound " + bound + " ms");
      assertTrue(recovered != null, "no backend.recovered: " + machine.backendEvents());

      // One outage, reported once each way, naming the fallback.
      assertEquals(1, machine.count("backend.unavailable"), "backend.unavailable once: " + machine.backendEvents());
      assertEquals(1, machine.count("backend.recovered"), "backend.recovered once: " + machine.backendEvents());
      Event unavailable = machine.events.stream().filter(e -> e.kind().equals("backend.unavailable")).findFirst().orElseThrow();
      assertEquals(mode.name().toLowerCase(java.util.Locale.ROOT), unavailable.attributes().get("fallback"));

      // The configured fallback, for every call made while Redis could not answer.
      List<Call> duringOutage = calls.stream().filter(c -> c.within(faultBegan, faultEnded)).toList();
      assertTrue(duringOutage.size() > 10, "calls made during the outage: " + duringOutage.size());
      for (Call call : duringOutage) {
        if (mode == WhenUnavailable.LOCAL) {
          assertTrue(call.outcome() == Outcome.OK || call.outcome() == Outcome.NO_TOKEN, "decided locally: " + call);
        } else {
          assertEquals(Outcome.BACKEND_REFUSED, call.outcome(), "refused naming the backend: " + call);
        }
      }
      if (mode == WhenUnavailable.LOCAL) {
        assertTrue(count(duringOutage, Outcome.OK) <= QUOTA, "within the local bucket's own quota");
      }
      for (Call call : calls) {
        assertTrue(call.outcome() != Outcome.UNEXPECTED && call.outcome() != Outcome.CIRCUIT_OPEN, String.valueOf(call));
      }

      // Within the quota while Redis is up.
      long upBefore = count(calls, c -> c.outcome() == Outcome.OK && c.endedBefore(faultSetOff));
      long upAfter = count(calls, c -> c.outcome() == Outcome.OK && c.startedAfter(recovered));
      long takenNow = tokensTaken(server, "brace:ratelimit:fault-quota");
      if (mode == WhenUnavailable.LOCAL) {
        // Its local bucket may have been used up before the outage was an instant old (two threads
        // take 100 tokens in milliseconds), so it is counted over the whole run: admissions beyond
        // what Redis can have granted (its first life's quota at most, plus what it holds now).
        long grantedByRedis = takenNow + (fault == Fault.KILLED_AND_RESTARTED ? QUOTA : 0);
        assertTrue(count(calls, Outcome.OK) > grantedByRedis,
            "the local bucket admitted calls: " + count(calls, Outcome.OK) + " admitted, Redis granted at most " + grantedByRedis);
      }
      if (fault == Fault.KILLED_AND_RESTARTED) {
        assertTrue(upBefore <= QUOTA && upAfter <= QUOTA, "each life of the server has its quota: " + upBefore + ", " + upAfter);
      } else {
        assertTrue(upBefore + upAfter <= QUOTA, "one quota across the pause: " + upBefore + " + " + upAfter);
      }
      if (mode == WhenUnavailable.REFUSE) {
        // Every admission is a token taken in Redis; a token taken but not admitted is one whose
        // command failed under its caller (it ran, the answer never came), never one given twice.
        List<Call> counted = fault == Fault.KILLED_AND_RESTARTED
            ? calls.stream().filter(c -> c.startedAfter(faultEnded)).toList()
            : calls;
        long admitted = count(counted, Outcome.OK);
        long failedUnderCaller = count(counted, Call::backendFailed);
        assertTrue(admitted <= takenNow && takenNow <= admitted + failedUnderCaller,
            "admitted " + admitted + ", taken in Redis " + takenNow + ", commands failed " + failedUnderCaller);
      }

      // Nothing counted against the dependency.
      assertEquals(0, machine.count("circuit.opened"), "no breaker opened: " + machine.backendEvents());
      assertEquals(CircuitState.CLOSED, machine.registry.circuitBreaker("fault-breaker").state());
      long failuresInRedis = hashLong(server, "brace:circuit:fault-failing", "failures");
      long delegateFailures = count(failingCalls, Outcome.DELEGATE_FAILED);
      assertEquals(failingCallers.invocations(), delegateFailures);
      assertTrue(failuresInRedis <= delegateFailures, "failures counted in Redis " + failuresInRedis + " > the delegate's " + delegateFailures);
      long surelyCounted = count(failingCalls, c -> c.outcome() == Outcome.DELEGATE_FAILED
          && (fault == Fault.KILLED_AND_RESTARTED ? c.startedAfter(recovered) : c.endedBefore(faultSetOff) || c.startedAfter(recovered)));
      assertTrue(failuresInRedis >= surelyCounted, "failures counted in Redis " + failuresInRedis + " < those surely recorded " + surelyCounted);
      for (Call call : failingCalls) {
        assertTrue(call.outcome() == Outcome.DELEGATE_FAILED || call.outcome() == Outcome.BACKEND_REFUSED, String.valueOf(call));
      }

      System.out.println("[reliability] redis-fault fault=" + fault + " fallback=" + mode
          + " mode=" + (LONG ? "long" : "quick") + " calls=" + (calls.size() + failingCalls.size())
          + " outcomes=" + outcomes(calls) + " during_outage=" + outcomes(duringOutage)
          + " admitted_up=" + upBefore + "+" + upAfter + " quota=" + QUOTA + " taken_in_redis_now=" + takenNow
          + " delegate_failures=" + delegateFailures + " counted_in_redis=" + failuresInRedis
          + " slowest_ms=" + slowest + " bound_ms=" + bound
          + " events=unavailable:1,recovered:1 invariants=bounded-calls,fallback-as-configured,events-once,"
          + "admitted<=quota-while-up,no-backend-failure-counted seconds=" + seconds(began));
    }
  }

  /**
   * The connection drops while a take is in flight: the server has run the script but the answer
   * never comes. The command fails at once (the client rejects commands in flight when its
   * connection drops, rather than sending them again after reconnecting), so the token is lost at
   * most, never taken twice.
   */
  @Test
  void aConnectionDroppedWhileATakeIsInFlightLosesThatTokenAtMost() throws Exception {
    try (Fleet machine = new Fleet(server, PATIENT_REFUSING, Map.of())) {
      for (int attempt = 1; ; attempt++) {
        String name = "drop-quota-" + attempt;
        Stack<String> stack = Stack.<String>builder("Faults.drop" + attempt)
            .rateLimit(name, r -> r.permits(10).per("1000h").backend("redis"))
            .build(machine.registry);
        assertEquals("warm", stack.call(() -> "warm"));
        String connection = backendConnection();

        Call call;
        boolean dropped;
        try (RedisServer.Connection admin = server.connect()) {
          holdEverything(admin);
          CompletableFuture<Call> outcome = new CompletableFuture<>();
          Thread caller = new Thread(() -> outcome.complete(Callers.callOnce(stack, () -> "second")));
          caller.start();
          dropped = dropRightAfterTheScriptOf(caller, admin, connection);
          call = outcome.get(30, TimeUnit.SECONDS);
          if (dropped) {
            assertEquals(1L, admin.reply());
          }
        }
        if (!dropped) {
          assertTrue(attempt < 5, "in 5 attempts the caller never had its take in flight within " + HOLD_MILLIS + " ms");
          continue;
        }

        assertEquals(Outcome.BACKEND_REFUSED, call.outcome(), String.valueOf(call));
        assertTrue(call.backendFailed(), "its command failed: " + call.thrown());
        assertTrue(call.nanos() / 1_000_000 <= HOLD_MILLIS + SLACK_MILLIS, "failed when the connection dropped: " + call);
        long taken = tokensTaken(server, "brace:ratelimit:" + name, 1000L * 3600 * 1_000_000 / 10);
        assertTrue(taken == 1 || taken == 2, "the warm-up's token, and the dropped take's at most once: " + taken);
        assertEquals(1, machine.count("backend.unavailable"));

        awaitRecovery(machine, stack);
        assertEquals(1, machine.count("backend.recovered"));
        assertEquals(1, machine.count("backend.unavailable"));
        System.out.println("[reliability] redis-fault fault=CONNECTION_DROPPED_MID_TAKE attempt=" + attempt
            + " taken_in_redis=" + taken + " (warm-up 1, dropped take " + (taken - 1) + ") call_ms=" + call.nanos() / 1_000_000
            + " invariants=at-most-once,bounded-call,events-once");
        return;
      }
    }
  }

  /**
   * The connection drops while a delegate's failure is being recorded: the failure counts once at
   * most. Were the command sent again after reconnecting, it would count twice and open this breaker
   * (threshold 2) on one failure of the dependency.
   */
  @Test
  void aConnectionDroppedWhileAFailureIsRecordedCountsItOnceAtMost() throws Exception {
    try (Fleet machine = new Fleet(server, PATIENT_REFUSING, Map.of())) {
      for (int attempt = 1; ; attempt++) {
        String name = "drop-breaker-" + attempt;
        Stack<String> stack = Stack.<String>builder("Faults.dropRecord" + attempt)
            .circuitBreaker(name, b -> b.failureThreshold(2).resetTimeout("1h").backend("redis"))
            .build(machine.registry);
        // Warm-up: a failure and a success, so both scripts are cached and the count is back to 0.
        assertEquals(Outcome.DELEGATE_FAILED, Callers.callOnce(stack, RedisFaultTest::dependencyDown).outcome());
        assertEquals(Outcome.OK, Callers.callOnce(stack, () -> "ok").outcome());
        assertEquals(0, hashLong(server, "brace:circuit:" + name, "failures"));
        String connection = backendConnection();

        Call call;
        boolean[] dropped = new boolean[1];
        try (RedisServer.Connection admin = server.connect()) {
          Thread caller = Thread.currentThread();
          CompletableFuture<?>[] killer = new CompletableFuture<?>[1];
          call = Callers.callOnce(stack, () -> {
            holdEverything(admin);
            // This failure's record goes out as soon as the delegate throws; the kill follows it.
            killer[0] = CompletableFuture.runAsync(() -> {
              try {
                dropped[0] = dropRightAfterTheScriptOf(caller, admin, connection);
              } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
              }
            });
            throw new IOException("dependency down");
          });
          killer[0].get(30, TimeUnit.SECONDS);
          if (dropped[0]) {
            assertEquals(1L, admin.reply());
          }
        }
        if (!dropped[0]) {
          assertTrue(attempt < 5, "in 5 attempts the record was never in flight within " + HOLD_MILLIS + " ms");
          continue;
        }

        assertEquals(Outcome.DELEGATE_FAILED, call.outcome(), "the dependency's own failure: " + call);
        long failures = hashLong(server, "brace:circuit:" + name, "failures");
        assertTrue(failures <= 1, "one failure of the dependency counted " + failures + " times");
        assertTrue(call.nanos() / 1_000_000 <= HOLD_MILLIS + SLACK_MILLIS, "failed when the connection dropped: " + call);
        assertEquals(0, machine.count("circuit.opened"), machine.backendEvents());
        assertEquals(1, machine.count("backend.unavailable"));

        awaitRecovery(machine, stack);
        assertEquals(CircuitState.CLOSED, machine.registry.circuitBreaker(name).state());
        assertEquals(1, machine.count("backend.recovered"));
        System.out.println("[reliability] redis-fault fault=CONNECTION_DROPPED_MID_RECORD attempt=" + attempt
            + " failures_counted=" + failures + " call_ms=" + call.nanos() / 1_000_000
            + " invariants=at-most-once,delegate-failure-only,bounded-call,events-once");
        return;
      }
    }
  }

  /** Holds every command in the server for {@link #HOLD_MILLIS} ({@code CLIENT PAUSE … ALL}). */
  private static void holdEverything(RedisServer.Connection admin) {
    admin.send("CLIENT", "PAUSE", Long.toString(HOLD_MILLIS), "ALL");
    assertEquals("OK", admin.reply());
  }

  /**
   * Once {@code caller} waits for its script, which the server holds, sends a {@code CLIENT KILL} of
   * the backend's connection, which the server holds behind it. When the hold ends the server runs
   * what it held in the order it came: the script runs, then the kill drops the connection before
   * the script's answer is written.
   *
   * @return false when the caller had no script in flight within most of the hold (a very slow
   *     machine); nothing was sent then, and the test tries again
   */
  private static boolean dropRightAfterTheScriptOf(Thread caller, RedisServer.Connection admin, String connection)
      throws InterruptedException {
    if (!Callers.blockedWithin(caller, RedisStore.class, "await", HOLD_MILLIS * 6 / 10)) {
      return false;
    }
    // The script's bytes leave the client's event loop before the kill's leave this thread.
    Thread.sleep(50);
    admin.send("CLIENT", "KILL", "ID", connection);
    return true;
  }

  /** @return the client id of the backend's one connection */
  private String backendConnection() {
    List<String> connections = server.clientIds(Fleet.CLIENT_NAME);
    assertEquals(1, connections.size(), "the backend's one connection: " + connections);
    return connections.get(0);
  }

  private static String dependencyDown() throws IOException {
    throw new IOException("dependency down");
  }

  /** Calls until the backend has recovered (a recheck reached Redis again). */
  private static void awaitRecovery(Fleet machine, Stack<String> stack) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (machine.count("backend.recovered") == 0 && System.nanoTime() < deadline) {
      Callers.callOnce(stack, () -> "ok");
      Thread.sleep(20);
    }
  }

  static long tokensTaken(RedisServer server, String key) {
    return tokensTaken(server, key, INTERVAL_MICROS);
  }

  /** @return tokens taken from a bucket that refills too slowly to matter, from its state in Redis */
  static long tokensTaken(RedisServer server, String key, long intervalMicros) {
    String fullAt = (String) server.command("GET", key);
    List<?> time = (List<?>) server.command("TIME");
    long now = Long.parseLong((String) time.get(0)) * 1_000_000 + Long.parseLong((String) time.get(1));
    return fullAt == null ? 0 : (Long.parseLong(fullAt) - now + intervalMicros - 1) / intervalMicros;
  }

  static long hashLong(RedisServer server, String key, String field) {
    String value = (String) server.command("HGET", key, field);
    return value == null ? 0 : Long.parseLong(value);
  }

  private static Map<Outcome, Long> outcomes(List<Call> calls) {
    Map<Outcome, Long> counts = new java.util.EnumMap<>(Outcome.class);
    for (Call call : calls) {
      counts.merge(call.outcome(), 1L, Long::sum);
    }
    return counts;
  }

  private static String seconds(long began) {
    return String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - began) / 1e9);
  }
}
