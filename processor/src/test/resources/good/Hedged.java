package p;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Hedge;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

public interface Hedged {
  @Retry(maxAttempts = 2)
  @Hedge(delay = "50ms", maxHedges = 2, on = IOException.class, budget = "search-api")
  @CircuitBreaker(name = "search-api", key = "{query}")
  @Timeout("1s")
  @Fallback(method = "none")
  String search(String query) throws IOException;

  default String none(String query) {
    return "";
  }

  @Hedge
  void ping() throws IOException;

  @Hedge(delay = "20ms")
  int count(String query);

  @Hedge(name = "search-async", maxHedges = 3)
  CompletableFuture<String> searchAsync(String query);
}
