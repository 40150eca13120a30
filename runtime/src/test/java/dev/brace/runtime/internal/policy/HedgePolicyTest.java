package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A call counts once in the budget its hedges withdraw from, whoever makes the deposit. */
class HedgePolicyTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final RetryBudget budget = new RetryBudget("shared", 0.5, 0, Duration.ofSeconds(10), clock);

  private HedgePolicy policy(boolean depositsPerGroup) {
    return new HedgePolicy(HedgeConfig.builder("Client.get").delay("50ms").build(), "Client.get",
        new RecordedEvents().bus(), budget, depositsPerGroup);
  }

  @Test
  void eachGroupDepositsOnceWhenNoRetryDepositsForTheCall() {
    HedgePolicy hedge = policy(true);
    for (int group = 0; group < 4; group++) {
      hedge.begin();
    }
    assertEquals(2, budget.available(), "half of the 4 calls may be hedged");
  }

  @Test
  void aGroupDepositsNothingWhenTheCallsRetryDoes() {
    HedgePolicy hedge = policy(false);
    for (int group = 0; group < 4; group++) {
      hedge.begin();
    }
    assertEquals(0, budget.available(), "the retry's deposit counts the call");
  }
}
