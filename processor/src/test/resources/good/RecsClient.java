package p;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.List;

@CircuitBreaker(name = "recs-api")
public interface RecsClient {
  @Retry(maxAttempts = 3, delay = "100ms", on = IOException.class)
  @RateLimit(name = "recs-api", permits = 20, per = "1s", key = "user:{userId}")
  @Bulkhead(name = "recs-api", maxConcurrent = 10)
  @Timeout("1s")
  @Fallback(method = "noRecs")
  List<String> recommendations(String userId) throws IOException;

  default List<String> noRecs(String userId, Exception cause) {
    return List.of();
  }

  int count();
}
