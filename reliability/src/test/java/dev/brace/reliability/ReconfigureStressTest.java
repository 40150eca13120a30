package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Reconfiguration while calls run, on real threads: one thread switches the registry between
 * three configurations (other retry counts, another bulkhead limit, the bulkhead and breaker
 * switched off) while the others call through a generated wrapper and a {@code Stack}. A call
 * that saw half of one configuration and half of another would run a retry count no
 * configuration has, or take a bulkhead permit under one sequence and return it under another:
 * between phases the arbiter checks that no permit is held or lost, the breaker holds no stranded
 * probe, and a limiter that keeps its tokens across every switch admitted no more than its burst.
 */
class ReconfigureStressTest {
  private static final int THREADS = 6;
  /** The 50 tokens the bucket starts with, and at 60 an hour at most two more in a long run. */
  private static final int QUOTA_BOUND = 52;

  @CircuitBreaker(name = "reconfigured", failureThreshold = 1_000_000)
  interface Remote {
    @Retry(maxAttempts = 2, delay = "1us", on = IOException.class)
    @Bulkhead(name = "reconfigured", maxConcurrent = 3)
    String call(int id) throws IOException;
  }

  private static final List<Map<String, String>> CONFIGURATIONS = List.of(
      Map.of(),
      Map.of("BRACE_RETRY_REMOTE_CALL_MAX_ATTEMPTS", "4",
          "BRACE_BULKHEAD_RECONFIGURED_MAX_CONCURRENT", "1",
          "BRACE_RATELIMIT_QUOTA_PERMITS", "60"),
      Map.of("BRACE_RETRY_REMOTE_CALL_MAX_ATTEMPTS", "3",
          "BRACE_BULKHEAD_RECONFIGURED_ENABLED", "false",
          "BRACE_CIRCUITBREAKER_RECONFIGURED_ENABLED", "false",
          "BRACE_RATELIMIT_QUOTA_BURST", "80"));
  /** maxAttempts and maxConcurrent of each configuration (0: no bulkhead). */
  private static final int[][] EXPECTED = {{2, 3}, {4, 1}, {3, 0}};

  @Test
  void callsDuringReconfigurationSeeOneWholeConfigurationAndLoseNoPermit() throws Exception {
    Report report = new Report("stress-reconfigure");
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    AtomicInteger attempts = new AtomicInteger();
    ThreadLocal<int[]> attemptsOfCall = ThreadLocal.withInitial(() -> new int[1]);
    Remote remote = ResilientReconfigureStressTest_Remote.wrap(id -> {
      attemptsOfCall.get()[0]++;
      attempts.incrementAndGet();
      LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(20_000));
      throw new IOException("down " + id);
    }, registry);
    // 50 tokens an hour: over a run of seconds the bucket refills nothing, so every admission spends one it held.
    Stack<String> quota = Stack.<String>builder("quota").rateLimit("quota", r -> r.permits(50).per("1h")).build(registry);
    Set<Integer> allowedAttempts = Set.of(2, 3, 4);
    AtomicLong calls = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicLong admittedByQuota = new AtomicLong();
    AtomicInteger configuration = new AtomicInteger();
    AtomicLong reconfigurations = new AtomicLong();
    int phases = Budget.pick(40, 400);

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          ThreadLocalRandom dice = ThreadLocalRandom.current();
          if (thread == 0) {
            for (int i = 0; i < 8; i++) {
              int next = dice.nextInt(CONFIGURATIONS.size());
              registry.reconfigure(CONFIGURATIONS.get(next), Map.of());
              configuration.set(next);
              reconfigurations.incrementAndGet();
              LockSupport.parkNanos(dice.nextInt(200_000));
            }
            return;
          }
          for (int i = 0; i < 40; i++) {
            attemptsOfCall.get()[0] = 0;
            try {
              remote.call(i);
            } catch (IOException allFailed) {
              int ran = attemptsOfCall.get()[0];
              assertTrue(allowedAttempts.contains(ran), "a call ran " + ran + " attempts, which no configuration asks for");
              calls.incrementAndGet();
            } catch (BulkheadFullException full) {
              refused.incrementAndGet();
            }
            try {
              quota.call(() -> "ok");
              admittedByQuota.incrementAndGet();
            } catch (RateLimitedException spent) {
              // The quota is spent: what is checked is that it never grows.
            }
          }
        },
        endedPhase -> {
          int[] expected = EXPECTED[configuration.get()];
          if (expected[1] > 0) {
            assertEquals(0, registry.bulkhead("reconfigured").inFlight(), "permits held between phases");
            assertEquals(expected[1], registry.bulkhead("reconfigured").available(), "permits free between phases");
          }
          assertEquals(CircuitState.CLOSED, registry.circuitBreaker("reconfigured").state());
          assertTrue(admittedByQuota.get() <= QUOTA_BOUND, "the quota admitted " + admittedByQuota + ": a switch made tokens");
        },
        60);

    // Switched back to the first configuration, everything is as a fresh registry would have it.
    registry.reconfigure(Map.of(), Map.of());
    assertEquals(0, registry.bulkhead("reconfigured").inFlight());
    assertEquals(3, registry.bulkhead("reconfigured").available());
    assertTrue(admittedByQuota.get() <= QUOTA_BOUND, "admitted " + admittedByQuota);
    report.put("phases", phases).put("threads", THREADS).put("reconfigurations", reconfigurations.get())
        .put("calls_all_attempts", calls.get()).put("attempts", attempts.get()).put("bulkhead_refusals", refused.get())
        .put("quota_admitted", admittedByQuota.get())
        .put("invariants", "attempts-in-{2,3,4},inFlight==0-and-available==limit-between-phases,quota<=burst").print();
  }
}
