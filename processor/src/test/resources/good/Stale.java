package p;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

public interface Stale {
  @StaleIfError(maxAge = "1h", fresh = "5s", key = "user:{userId}")
  @Retry(maxAttempts = 2, on = IOException.class)
  @Fallback(method = "none", on = IOException.class)
  List<String> recommendations(String userId, int limit) throws IOException;

  @StaleIfError
  String price(String sku, String... regions);

  @StaleIfError
  String everything(String[] ids);

  @StaleIfError(maxEntries = 100)
  CompletableFuture<String> report(String id);

  default List<String> none(String userId, int limit, IOException cause) {
    return List.of();
  }
}
