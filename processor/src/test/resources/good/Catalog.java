package p;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.function.Predicate;

@Retry(maxAttempts = 2)
@CircuitBreaker
public interface Catalog {
  @Retry(maxAttempts = 5, delay = "10ms", jitter = Retry.Jitter.NONE, onResult = Catalog.IsEmpty.class)
  @CircuitBreaker(name = "catalog-db", failureRate = 0.5, onResult = Catalog.IsEmpty.class)
  String find(String id);

  @Timeout(value = "250ms", mode = Timeout.Mode.ABANDON)
  @Fallback(method = "ignoreSave", on = IOException.class)
  void save(String id) throws IOException;

  static void ignoreSave(String id, IOException cause) {}

  long size();

  default String describe() {
    return "catalog of " + size();
  }

  final class IsEmpty implements Predicate<String> {
    @Override
    public boolean test(String value) {
      return value.isEmpty();
    }
  }
}
