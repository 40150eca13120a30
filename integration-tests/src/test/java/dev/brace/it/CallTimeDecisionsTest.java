package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brace.it.matrix.InMemoryBackend;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Decisions made when a call runs, through generated wrappers as a user meets them: what
 * configuration says holds for a generated sync method too, a listener combines with any
 * backend, and waits and interrupts follow the registry's clock and the caller's intent
 * (issue 14, items 1, 3 and 5, and the items found by reading the code).
 */
class CallTimeDecisionsTest {
  private final ManualTimeSource clock = new ManualTimeSource();

  private Registry.Builder registry() {
    return Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of());
  }

  @Test
  void aMetricsListenerAndANonLocalBreakerCombine() throws Exception {
    InMemoryBackend backend = new InMemoryBackend();
    Registry registry = registry().backend(InMemoryBackend.NAME, backend)
        .circuitBreaker("metered", b -> b.backend(InMemoryBackend.NAME)).build();
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribeForMetrics(events::add);
    AtomicInteger calls = new AtomicInteger();
    Deque<Boolean> failures = new ArrayDeque<>(List.of(false, true, true));
    PipelineClients.Metered client = ResilientPipelineClients_Metered.wrap(id -> {
      calls.incrementAndGet();
      if (failures.isEmpty() || !failures.poll()) {
        return "ok:" + id;
      }
      throw new IOException("down");
    }, registry);

    assertEquals("ok:a", client.call("a"));
    assertEquals(1, calls.get(), "a success is neither retried nor answered by the fallback");
    assertTrue(events.stream().anyMatch(e -> e.kind().equals("call.succeeded") && "metered".equals(e.attributes().get("circuitbreaker"))),
        "the listener hears the call and its breaker: " + events);

    assertEquals("fallback", client.call("b"), "two failures open the breaker, which refuses the third attempt");
    assertEquals(3, calls.get());
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("metered").state());
    assertTrue(backend.created.contains("metered"));
  }

  @Test
  void aProgrammaticResultPredicateIsHonouredByAGeneratedSyncMethod() {
    Registry registry = registry().retry("PipelineClients.Lookup.lookup", r -> r.onResult((String value) -> value.isEmpty())).build();
    Deque<String> answers = new ArrayDeque<>(List.of("", "", "found"));
    PipelineClients.Lookup lookup = ResilientPipelineClients_Lookup.wrap(key -> answers.poll(), registry);

    assertEquals("found", lookup.lookup("k"), "the empty results are retried");
    assertTrue(answers.isEmpty());
  }

  @Test
  void aSyncFallbackReceivesTheIoExceptionInsideAnExecutionException() throws Exception {
    PipelineClients.Unwrapping client = ResilientPipelineClients_Unwrapping.wrap(() -> {
      throw new ExecutionException(new IOException("down"));
    }, registry().build());

    assertEquals("offline:down", client.call(), "on = IOException.class matched the cause; the fallback gets that cause");
  }

  @Test
  void aSystemPropertySwitchingBraceOnWinsOverTheEnvironmentSwitchingItOff() {
    AtomicInteger calls = new AtomicInteger();
    PipelineClients.Switched failing = () -> {
      calls.incrementAndGet();
      throw new IOException("down");
    };
    Registry on = Registry.builder().timeSource(clock)
        .environment(Map.of("BRACE_ENABLED", "false")).systemProperties(Map.of("brace.enabled", "true")).build();

    assertThrows(IOException.class, () -> ResilientPipelineClients_Switched.wrap(failing, on).call());
    assertEquals(3, calls.get(), "-Dbrace.enabled=true wins: the retry runs");

    calls.set(0);
    Registry off = Registry.builder().timeSource(clock)
        .environment(Map.of("BRACE_ENABLED", "true")).systemProperties(Map.of("brace.enabled", "false")).build();
    assertThrows(IOException.class, () -> ResilientPipelineClients_Switched.wrap(failing, off).call());
    assertEquals(1, calls.get(), "-Dbrace.enabled=false wins: a pass-through");
  }

  @Test
  void timeoutExceededNamesTheExceptionAndItsMessage() throws Exception {
    Registry registry = registry().build();
    List<Event> exceeded = new CopyOnWriteArrayList<>();
    registry.subscribe(event -> {
      if (event.kind().equals("timeout.exceeded")) {
        exceeded.add(event);
      }
    });
    PipelineClients.Slow slow = ResilientPipelineClients_Slow.wrap(new PipelineClients.Slow() {
      @Override
      public String call() {
        try {
          clock.sleep(Duration.ofHours(1));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
        return "late";
      }

      @Override
      public CompletableFuture<String> callAsync() {
        return new CompletableFuture<>();
      }
    }, registry);

    assertThrows(TimeoutExceededException.class, slow::call);
    CompletableFuture<String> async = slow.callAsync();
    clock.advance(Duration.ofSeconds(1));
    assertTrue(async.isCompletedExceptionally());

    assertEquals(2, exceeded.size());
    for (Event event : exceeded) {
      assertEquals(TimeoutExceededException.class.getName(), event.attributes().get("exception"), "attributes " + event.attributes());
      assertNotNull(event.attributes().get("message"), "attributes " + event.attributes());
    }
  }

  @Test
  void aCallerInterruptedDuringAnAbandonTimeoutIsNotCountedAgainstTheDependency() throws Exception {
    Registry registry = registry().build();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    PipelineClients.Abandoning client = ResilientPipelineClients_Abandoning.wrap(() -> {
      if (calls.incrementAndGet() == 1) {
        entered.countDown();
        try {
          finish.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException abandoned) {
          return "abandoned";
        }
      }
      return "ok";
    }, registry);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> interruptKept = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        client.call();
      } catch (Throwable failure) {
        thrown.set(failure);
      }
      interruptKept.set(Thread.currentThread().isInterrupted());
    });

    try {
      caller.start();
      assertTrue(entered.await(10, TimeUnit.SECONDS));
      caller.interrupt();
      caller.join(TimeUnit.SECONDS.toMillis(10));
      assertFalse(caller.isAlive(), "the interrupted caller returns");
    } finally {
      finish.countDown();
    }

    assertNotNull(thrown.get(), "the interrupted call ends with a failure");
    assertTrue(interruptKept.get(), "the caller's interrupt flag is kept");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("abandoning").state(),
        "the caller gave up; the dependency did not fail (one counted failure would open it)");
    assertEquals("ok", client.call());
  }

  @Test
  void theSyncBulkheadMeasuresMaxWaitOnTheRegistryClock() throws Exception {
    Registry registry = registry().build();
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    PipelineClients.Crowded client = ResilientPipelineClients_Crowded.wrap(id -> {
      if (id.equals("hold")) {
        holding.countDown();
        release.await(10, TimeUnit.SECONDS);
      }
      return id;
    }, registry);
    ExecutorService callers = Executors.newFixedThreadPool(2);
    CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> call(client, "hold"), callers);
    try {
      assertTrue(holding.await(10, TimeUnit.SECONDS));
      CompletableFuture<String> waiter = CompletableFuture.supplyAsync(() -> call(client, "wait"), callers);

      // An hour passes on the registry's clock within a few seconds of real time.
      long realDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (!waiter.isDone()) {
        if (System.nanoTime() > realDeadline) {
          fail("the waiter still waits after " + Duration.ofNanos(clock.nanoTime()).toMinutes()
              + " min of manual time: its maxWait of 1 h runs on another clock");
        }
        clock.advance(Duration.ofMinutes(1));
        try {
          waiter.get(2, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException notYet) {
          // advance again
        } catch (ExecutionException ended) {
          break;
        }
      }
      ExecutionException refused = assertThrows(ExecutionException.class, waiter::get);
      assertTrue(refused.getCause() instanceof BulkheadFullException, String.valueOf(refused.getCause()));
    } finally {
      release.countDown();
      // The holder finishes before the pool goes: shutdownNow would interrupt it mid-call.
      assertEquals("hold", holder.get(10, TimeUnit.SECONDS));
      callers.shutdownNow();
    }
  }

  private static String call(PipelineClients.Crowded client, String id) {
    try {
      return client.call(id);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(interrupted);
    }
  }

}
