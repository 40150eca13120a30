package p;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

public interface Reports {
  @Retry
  @Timeout("2s")
  CompletableFuture<String> report(String id);

  @Fallback(method = "cached")
  CompletionStage<Integer> count(String id);

  default int cached(String id) {
    return 0;
  }

  @CircuitBreaker(name = "reports", key = "{id}")
  @Fallback(method = "later", on = IOException.class)
  CompletableFuture<String> keyed(String id);

  default CompletableFuture<String> later(String id, IOException cause) {
    return CompletableFuture.completedFuture(id);
  }

  CompletableFuture<Void> plain();
}
