package dev.brace.it;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletionStage;

/** Interfaces for the end-to-end tests of keyed instances, budgets and CompletionStage returns. */
final class Features {
  private Features() {}

  /** A request whose host keys the breaker. */
  record Request(String host, String path) {}

  interface Keyed {
    @CircuitBreaker(name = "per-host", failureThreshold = 1, key = "{request.host}")
    @RateLimit(name = "per-user", permits = 2, per = "1h", key = "user:{user}")
    String fetch(Request request, String user) throws IOException;
  }

  interface Budgeted {
    @Retry(maxAttempts = 5, delay = "1ms", budget = "shared-budget")
    String call() throws IOException;
  }

  interface Staged {
    @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE)
    @CircuitBreaker(name = "staged", failureThreshold = 10)
    @Timeout("1s")
    @Fallback(method = "fallback", on = IllegalStateException.class)
    CompletionStage<String> load(String id);

    default CompletionStage<String> fallback(String id, IllegalStateException cause) {
      return java.util.concurrent.CompletableFuture.completedFuture("fallback:" + id);
    }
  }

  interface Shared {
    @CircuitBreaker(name = "shared-breaker", failureThreshold = 2, resetTimeout = "30s")
    String call() throws IOException;
  }
}
