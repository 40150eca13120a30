package dev.brace.reliability;

import dev.brace.Bulkhead;
import dev.brace.Hedge;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The client {@link HedgeStressTest} drives through its generated wrapper: hedged twice, one
 * millisecond apart, on a budget both methods share, each attempt through a bulkhead small enough
 * to refuse hedges now and then.
 */
public interface HedgeStressClient {
  /** The name of the retry budget every hedge draws on. */
  String BUDGET = "stress-hedges";

  /** Synchronous: attempts on worker threads, losers interrupted. */
  @Hedge(delay = "1ms", maxHedges = 2, budget = BUDGET)
  @Bulkhead(name = "stress-hedge-sync", maxConcurrent = 6)
  String call(int id) throws IOException;

  /** Asynchronous: attempts are further calls of the delegate, losers' futures cancelled. */
  @Hedge(delay = "1ms", maxHedges = 2, budget = BUDGET)
  @Bulkhead(name = "stress-hedge-async", maxConcurrent = 6)
  CompletableFuture<String> callAsync(int id);
}
