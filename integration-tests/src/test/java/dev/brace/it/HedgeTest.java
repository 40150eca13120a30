package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Hedge;
import dev.brace.Retry;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** {@code @Hedge} end to end through generated wrappers, on manual time, with configuration by name. */
class HedgeTest {
  /** How long a thread may take to get somewhere before the test counts it as hung; only a hang reaches it. */
  private static final Duration REAL_BOUND = Duration.ofSeconds(60);

  interface Search {
    @Hedge(delay = "100ms", maxHedges = 2, on = IOException.class)
    String find(String query) throws IOException;

    @Hedge(delay = "100ms", maxHedges = 2, on = IOException.class)
    CompletableFuture<String> findAsync(String query);

    @Retry(maxAttempts = 2, delay = "0ms", budget = "search-budget")
    @Hedge(delay = "100ms", budget = "search-budget")
    String budgeted(String query) throws IOException;
  }

  /** Every invocation waits on a gate of its own, which the test opens. */
  static final class Gated implements Search {
    final List<CompletableFuture<String>> gates = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();

    @Override
    public String find(String query) throws IOException {
      try {
        return findAsync(query).get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", stopped);
      } catch (ExecutionException | java.util.concurrent.TimeoutException failed) {
        throw new IOException(failed);
      }
    }

    @Override
    public CompletableFuture<String> findAsync(String query) {
      CompletableFuture<String> gate = new CompletableFuture<>();
      threads.add(Thread.currentThread().getName());
      gates.add(gate);
      return gate;
    }

    @Override
    public String budgeted(String query) throws IOException {
      return find(query);
    }

    void await(int count) {
      long deadline = System.nanoTime() + REAL_BOUND.toNanos();
      while (gates.size() < count) {
        assertTrue(System.nanoTime() < deadline, "the delegate was invoked " + gates.size() + " times, expected " + count);
        LockSupport.parkNanos(1_000_000);
      }
    }
  }

  private final ManualTimeSource clock = new ManualTimeSource();
  private final Gated delegate = new Gated();

  private Registry registry(Map<String, String> environment, Map<String, String> properties) {
    return Registry.builder().timeSource(clock).environment(environment).systemProperties(properties).build();
  }

  private static CompletableFuture<String> inBackground(Search search) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        outcome.complete(search.find("q"));
      } catch (Throwable failure) {
        outcome.completeExceptionally(failure);
      }
    }, "hedge-test-caller");
    caller.setDaemon(true);
    caller.start();
    return outcome;
  }

  @Test
  void aGeneratedSyncMethodHedgesOnTheRegistrysClockAndTheFirstAnswerWins() throws Exception {
    Search search = ResilientHedgeTest_Search.wrap(delegate, registry(Map.of(), Map.of()));
    CompletableFuture<String> call = inBackground(search);
    delegate.await(1);
    clock.advance(Duration.ofMillis(100));
    delegate.await(2);
    delegate.gates.get(1).complete("hedge");

    assertEquals("hedge", call.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS));
    assertTrue(delegate.threads.stream().allMatch(name -> name.startsWith("brace-hedge-")),
        "attempts run on the hedge's worker threads: " + delegate.threads);
  }

  @Test
  void aGeneratedAsyncMethodHedgesWithFurtherCallsOfTheDelegate() {
    Search search = ResilientHedgeTest_Search.wrap(delegate, registry(Map.of(), Map.of()));
    CompletableFuture<String> call = search.findAsync("q");
    clock.advance(Duration.ofMillis(100));
    clock.advance(Duration.ofMillis(100));
    assertEquals(3, delegate.gates.size());
    delegate.gates.get(2).complete("third");

    assertEquals("third", call.join());
    assertTrue(delegate.gates.get(0).isCancelled());
    assertTrue(delegate.gates.get(1).isCancelled());
  }

  @Test
  void aSystemPropertyChangesTheDelay() throws Exception {
    Search search = ResilientHedgeTest_Search.wrap(delegate,
        registry(Map.of("BRACE_HEDGE_HEDGETEST_SEARCH_FINDASYNC_DELAY", "500ms"), Map.of("brace.hedge.HedgeTest.Search.findAsync.delay", "1s")));
    search.findAsync("q");
    clock.advance(Duration.ofMillis(999));
    assertEquals(1, delegate.gates.size());
    clock.advance(Duration.ofMillis(1));
    assertEquals(2, delegate.gates.size(), "the property wins over the variable");
  }

  @Test
  void switchedOffTheMethodMakesOneAttemptOnTheCallersThread() throws Exception {
    Search search = ResilientHedgeTest_Search.wrap(delegate,
        registry(Map.of("BRACE_HEDGE_HEDGETEST_SEARCH_FIND_ENABLED", "false"), Map.of()));
    CompletableFuture<String> call = inBackground(search);
    delegate.await(1);
    clock.advance(Duration.ofSeconds(1));
    delegate.gates.get(0).complete("only");

    assertEquals("only", call.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS));
    assertEquals(List.of("hedge-test-caller"), delegate.threads);
  }

  @Test
  void anOutOfRangeVariableFailsWhenTheWrapperIsCreatedNamingIt() {
    Registry registry = registry(Map.of("BRACE_HEDGE_HEDGETEST_SEARCH_FIND_MAX_HEDGES", "11"), Map.of());
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> ResilientHedgeTest_Search.wrap(delegate, registry));
    assertTrue(refused.getMessage().contains("BRACE_HEDGE_HEDGETEST_SEARCH_FIND_MAX_HEDGES=11"), refused.getMessage());
    assertTrue(refused.getMessage().contains("an integer from 1 to 10"), refused.getMessage());
  }

  @Test
  void theRegistryListsItsHedges() {
    Registry registry = registry(Map.of(), Map.of());
    ResilientHedgeTest_Search.wrap(delegate, registry);
    assertEquals(Set.of("HedgeTest.Search.find", "HedgeTest.Search.findAsync", "HedgeTest.Search.budgeted"),
        registry.names().get("hedge"));
    assertEquals(Set.of("search-budget"), registry.names().get("retrybudget"));
  }

  @Test
  void hedgesAndRetriesDrawOnTheBudgetTheyNameTogether() throws Exception {
    Registry registry = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of())
        .retryBudget("search-budget", b -> b.percentCanRetry(0).minRetriesPerSecond(0.1).ttl("10s"))
        .build();
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    Search search = ResilientHedgeTest_Search.wrap(delegate, registry);

    CompletableFuture<String> call = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        call.complete(search.budgeted("q"));
      } catch (Throwable failure) {
        call.completeExceptionally(failure);
      }
    });
    caller.setDaemon(true);
    caller.start();
    delegate.await(1);
    clock.advance(Duration.ofMillis(100));
    delegate.await(2);
    delegate.gates.get(0).completeExceptionally(new IOException("first"));
    delegate.gates.get(1).completeExceptionally(new IOException("hedge"));

    ExecutionException failed = assertThrows(ExecutionException.class, () -> call.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS));
    assertTrue(failed.getCause() instanceof IOException);
    assertEquals(2, delegate.gates.size(), "the hedge took the budget's one retry, so the retry found it empty");
    assertEquals(1, events.stream().filter(event -> event.kind().equals("retry.budget_exhausted")).count());
    assertFalse(events.stream().anyMatch(event -> event.kind().equals("hedge.budget_exhausted")));
  }
}
