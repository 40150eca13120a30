package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** What the guide's "Hedging" says of a budget: hedges are capped at its share of calls. */
class HedgeExampleTest {

  @Test
  void aBudgetCapsTheHedgesAtItsShareOfCalls() {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock)
        .environment(Map.of()).systemProperties(Map.of())
        .retryBudget("prices", b -> b.percentCanRetry(0.1).minRetriesPerSecond(0))   // the guide's settings
        .build();
    Stack<String> prices = Stack.<String>builder("prices.latest")
        .hedge(h -> h.delay("20ms").maxHedges(2).budget("prices"))
        .build(registry);
    List<CompletableFuture<String>> requests = new CopyOnWriteArrayList<>();

    // A hundred calls whose every answer is slow: each would send two hedges.
    List<CompletableFuture<String>> calls = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 100; i++) {
      calls.add(prices.callAsync(() -> {
        CompletableFuture<String> request = new CompletableFuture<>();
        requests.add(request);
        return request;
      }));
    }
    clock.advance(Duration.ofMillis(20));
    clock.advance(Duration.ofMillis(20));

    assertEquals(110, requests.size(), "100 calls deposit 10 hedges; without the budget there would be 300 requests");
    requests.forEach(request -> request.complete("9.99"));
    calls.forEach(call -> assertEquals("9.99", call.join()));
  }
}
