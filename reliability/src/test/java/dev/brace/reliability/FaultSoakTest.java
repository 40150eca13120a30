package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generated wrappers (sync with INTERRUPT, sync with ABANDON, async) driven from many threads for a
 * bounded time against {@link FaultyServer}. At the end: every call ended in exactly one outcome,
 * no bulkhead permit is held, no thread Brace started is still running, no caller was left
 * interrupted, every checked exception is the delegate's own object, and the delegate's
 * invocations add up with the events the registry reported.
 */
class FaultSoakTest {
  private static final int CALLERS_PER_METHOD = 4;
  /** How many calls each async caller keeps in flight. */
  private static final int ASYNC_IN_FLIGHT = 3;
  private static final Duration GRACE = Duration.ofSeconds(10);

  /** Counts the outcomes of one method's calls by kind. */
  private static final class Outcomes {
    final AtomicLong started = new AtomicLong();
    final ConcurrentHashMap<String, AtomicLong> byKind = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

    void record(String kind) {
      byKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    long count(String kind) {
      AtomicLong count = byKind.get(kind);
      return count == null ? 0 : count.get();
    }

    long ended() {
      return byKind.values().stream().mapToLong(AtomicLong::get).sum();
    }

    @Override
    public String toString() {
      return new TreeMap<>(byKind).toString().replace(" ", "");
    }
  }

  // The soak bounds itself: callers stop at its length and are joined within a grace period. The
  // build-wide two-minute guard against a hung test would cut a long soak short, so this test's
  // guard lies past the longest soak -Dreliability.soak.minutes accepts.
  @Test
  @Timeout(value = Budget.LONGEST_SOAK_MINUTES + 10, unit = TimeUnit.MINUTES)
  void everyCallEndsOnceAndNothingLeaks() throws Exception {
    Report report = new Report("soak");
    Duration length = Budget.soak(Duration.ofSeconds(20), Duration.ofMinutes(5));
    Set<Thread> braceThreadsBefore = braceThreads();
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, runnable -> {
      Thread thread = new Thread(runnable, "soak-scheduler");
      thread.setDaemon(true);
      return thread;
    });
    Registry registry = Registry.builder().scheduler(scheduler).build();
    ConcurrentHashMap<String, AtomicLong> events = new ConcurrentHashMap<>();
    registry.subscribe(event -> events.computeIfAbsent(key(event), k -> new AtomicLong()).incrementAndGet());
    AtomicLong interruptLeaks = new AtomicLong();
    Outcomes sync = new Outcomes();
    Outcomes abandon = new Outcomes();
    Outcomes async = new Outcomes();

    try (FaultyServer server = new FaultyServer()) {
      SoakDelegate delegate = new SoakDelegate(server);
      SoakClient client = ResilientSoakClient.wrap(delegate, registry);
      long deadline = System.nanoTime() + length.toNanos();
      List<Thread> callers = new ArrayList<>();
      for (int i = 0; i < CALLERS_PER_METHOD; i++) {
        callers.add(caller("sync-" + i, deadline, () -> callSync(client::get, delegate, sync, interruptLeaks)));
        callers.add(caller("abandon-" + i, deadline, () -> callSync(client::getAbandoning, delegate, abandon, interruptLeaks)));
        Semaphore inFlight = new Semaphore(ASYNC_IN_FLIGHT);
        callers.add(caller("async-" + i, deadline, () -> callAsync(client, delegate, async, inFlight, interruptLeaks)));
      }
      callers.forEach(Thread::start);
      for (Thread caller : callers) {
        caller.join(length.plus(GRACE).toMillis());
        assertTrue(!caller.isAlive(), caller.getName() + " still calling after the soak ended");
      }
      // Async calls still in flight, and abandoned attempts still in their bounded read, finish.
      long graceEnd = System.nanoTime() + GRACE.toNanos();
      while ((async.ended() < async.started.get() || delegate.running.get() > 0 || !newBraceThreads(braceThreadsBefore).isEmpty())
          && System.nanoTime() < graceEnd) {
        Thread.sleep(20);
      }
      String served = server.served();
      delegate.close();

      // Every call ended in exactly one outcome.
      for (Outcomes outcomes : List.of(sync, abandon, async)) {
        assertEquals(outcomes.started.get(), outcomes.ended(), "calls started vs ended: " + outcomes);
        assertTrue(outcomes.unexpected.isEmpty(), "unexpected outcomes: " + outcomes.unexpected);
      }
      // No permit leaked.
      for (String name : List.of("soak-sync", "soak-abandon", "soak-async")) {
        assertEquals(0, registry.bulkhead(name).inFlight(), "bulkhead " + name + " permits still held");
      }
      // No Brace thread left running.
      assertEquals(List.of(), newBraceThreads(braceThreadsBefore).stream().map(Thread::getName).collect(Collectors.toList()),
          "threads Brace started that are still running after " + GRACE.toSeconds() + " s of grace");
      assertEquals(0, interruptLeaks.get(), "callers left with their interrupt flag set");
      // The delegate's invocations add up with the events: every invocation either succeeded (and
      // ended its call) or failed and was reported once as retry.attempt_failed.
      checkInvocations("SoakClient.get", delegate.syncInvocations.get(), sync, events);
      checkInvocations("SoakClient.getAbandoning", delegate.abandonInvocations.get(), abandon, events);
      checkInvocations("SoakClient.getAsync", delegate.asyncInvocations.get(), async, events);
      // Every refusal that ended a call was reported once.
      checkRefusals("soak-sync", sync, events);
      checkRefusals("soak-abandon", abandon, events);
      checkRefusals("soak-async", async, events);

      report.put("calls", sync.started.get() + abandon.started.get() + async.started.get())
          .put("sync", sync).put("abandon", abandon).put("async", async)
          .put("invocations", delegate.syncInvocations.get() + "/" + delegate.abandonInvocations.get() + "/" + delegate.asyncInvocations.get())
          .put("server", served)
          .put("events", new TreeMap<>(events).toString().replace(" ", ""))
          .put("invariants", "one-outcome-per-call,bulkheads-empty,no-brace-threads,no-interrupt-leak,"
              + "checked-exceptions-as-themselves,invocations==attempt_failed+successes,refusals==rejected-events")
          .print();
    } finally {
      scheduler.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface Call {
    String call(String path) throws IOException;
  }

  private static Thread caller(String name, long deadline, Runnable oneCall) {
    return new Thread(() -> {
      while (System.nanoTime() < deadline) {
        oneCall.run();
        // A short think time, so callers refused by an open circuit do not spin.
        LockSupport.parkNanos(1_000_000);
      }
    }, "soak-caller-" + name);
  }

  private static void callSync(Call call, SoakDelegate delegate, Outcomes outcomes, AtomicLong interruptLeaks) {
    outcomes.started.incrementAndGet();
    try {
      call.call("item");
      outcomes.record("ok");
    } catch (IOException failure) {
      outcomes.record(delegate.threw(failure) ? "io" : "io-not-the-delegates");
      if (!delegate.threw(failure)) {
        outcomes.unexpected.add("an IOException the delegate did not throw: " + failure);
      }
    } catch (Throwable failure) {
      outcomes.record(classify(failure, outcomes));
    }
    if (Thread.interrupted()) {
      interruptLeaks.incrementAndGet();
    }
  }

  private static void callAsync(
      SoakClient client, SoakDelegate delegate, Outcomes outcomes, Semaphore inFlight, AtomicLong interruptLeaks) {
    try {
      if (!inFlight.tryAcquire(1, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
      return;
    }
    outcomes.started.incrementAndGet();
    CompletableFuture<String> future;
    try {
      future = client.getAsync("item");
    } catch (Throwable thrown) {
      outcomes.unexpected.add("the async wrapper threw instead of failing its future: " + thrown);
      outcomes.record("thrown");
      inFlight.release();
      return;
    }
    AtomicLong completions = new AtomicLong();
    future.whenComplete((value, failure) -> {
      if (completions.incrementAndGet() > 1) {
        outcomes.unexpected.add("a future completed twice");
      }
      if (failure == null) {
        outcomes.record("ok");
      } else if (failure instanceof IOException) {
        outcomes.record(delegate.threw(failure) ? "io" : "io-not-the-delegates");
        if (!delegate.threw(failure)) {
          outcomes.unexpected.add("an IOException the delegate did not throw: " + failure);
        }
      } else {
        outcomes.record(classify(failure, outcomes));
      }
      inFlight.release();
    });
    if (Thread.interrupted()) {
      interruptLeaks.incrementAndGet();
    }
  }

  private static String classify(Throwable failure, Outcomes outcomes) {
    if (failure instanceof TimeoutExceededException) {
      return "timeout";
    }
    if (failure instanceof CircuitOpenException) {
      return "circuit_open";
    }
    if (failure instanceof BulkheadFullException) {
      return "bulkhead_full";
    }
    outcomes.unexpected.add(failure.toString());
    return "unexpected";
  }

  private static String key(Event event) {
    return event.kind() + "@" + event.instance();
  }

  private static long count(Map<String, AtomicLong> events, String kind, String instance) {
    AtomicLong count = events.get(kind + "@" + instance);
    return count == null ? 0 : count.get();
  }

  private static void checkInvocations(String call, long invocations, Outcomes outcomes, Map<String, AtomicLong> events) {
    long failedAttempts = count(events, "retry.attempt_failed", call);
    assertEquals(invocations, failedAttempts + outcomes.count("ok"),
        call + ": delegate invocations vs retry.attempt_failed events + successful calls " + outcomes);
  }

  private static void checkRefusals(String name, Outcomes outcomes, Map<String, AtomicLong> events) {
    assertEquals(outcomes.count("circuit_open"), count(events, "circuit.rejected", name), name + ": calls ended by the open circuit vs circuit.rejected");
    assertEquals(outcomes.count("bulkhead_full"), count(events, "bulkhead.rejected", name), name + ": calls ended by the full bulkhead vs bulkhead.rejected");
  }

  private static Set<Thread> braceThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("brace-") && thread.isAlive())
        .collect(Collectors.toSet());
  }

  private static List<Thread> newBraceThreads(Set<Thread> before) {
    return braceThreads().stream().filter(thread -> !before.contains(thread)).collect(Collectors.toList());
  }
}
