package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What the guide's "Programmatic settings" says of retry budgets: a budget caps the retries of the
 * calls that name it, and does nothing for a retry that does not.
 */
class RetryBudgetExampleTest {

  /** Names the budget, as the guide's {@code SearchClient} does. */
  interface BudgetedSearch {
    @Retry(maxAttempts = 3, delay = "1ms", on = IOException.class, budget = "search-api")
    List<String> search(String query) throws IOException;
  }

  /** The same retry without {@code budget}. */
  interface UnbudgetedSearch {
    @Retry(maxAttempts = 3, delay = "1ms", on = IOException.class)
    List<String> search(String query) throws IOException;
  }

  private final AtomicInteger calls = new AtomicInteger();
  private final Registry registry = Registry.builder().timeSource(new ManualTimeSource())
      .environment(Map.of()).systemProperties(Map.of())
      .retryBudget("search-api", b -> b.percentCanRetry(0.1).minRetriesPerSecond(0))
      .build();

  private List<String> failing(String query) throws IOException {
    calls.incrementAndGet();
    throw new IOException("down");
  }

  private int attemptsOfAHundredFailingCalls(Executable call) {
    for (int i = 0; i < 100; i++) {
      assertThrows(IOException.class, call);
    }
    return calls.get();
  }

  @Test
  void aRetryThatNamesTheBudgetRetriesAtMostItsShareOfCalls() {
    BudgetedSearch search = ResilientRetryBudgetExampleTest_BudgetedSearch.wrap(this::failing, registry);

    // 100 first attempts deposit 10 retries; without the budget there would be 200.
    assertEquals(110, attemptsOfAHundredFailingCalls(() -> search.search("q")));
  }

  @Test
  void aBudgetNoRetryNamesChangesNothing() {
    UnbudgetedSearch search = ResilientRetryBudgetExampleTest_UnbudgetedSearch.wrap(this::failing, registry);

    assertEquals(300, attemptsOfAHundredFailingCalls(() -> search.search("q")));
  }
}
