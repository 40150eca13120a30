package dev.brace.it;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitOpenException;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;

/** Annotated interfaces compiled by the real processor for the end-to-end tests. */
final class Clients {
  private Clients() {}

  /** A hanging dependency behind a timeout opens the circuit. */
  interface Hanging {
    @CircuitBreaker(name = "hanging", failureThreshold = 2)
    @Timeout("1s")
    String fetch(String id) throws IOException;
  }

  /** Annotations written in the "wrong" order: the order is still enforced. */
  interface Ordered {
    @Timeout("1s")
    @Bulkhead(name = "ordered", maxConcurrent = 1)
    @RateLimit(name = "ordered", permits = 100, per = "1h")
    @CircuitBreaker(name = "ordered", failureThreshold = 1, resetTimeout = "10s")
    @Retry(maxAttempts = 3, delay = "10ms", jitter = Retry.Jitter.NONE)
    String call(int n) throws IOException;
  }

  /** A retry that names the refusal rides out the open window. */
  interface RidesOut {
    @Retry(maxAttempts = 2, delay = "10ms", jitter = Retry.Jitter.NONE, on = {IOException.class, CircuitOpenException.class})
    @CircuitBreaker(name = "rides-out", failureThreshold = 1, resetTimeout = "2s")
    String call() throws IOException;
  }

  /** A bulkhead of one in front of a breaker of one. */
  interface Crowded {
    @CircuitBreaker(name = "crowded", failureThreshold = 1)
    @Bulkhead(name = "crowded", maxConcurrent = 1)
    String call() throws InterruptedException;
  }

  @CircuitBreaker(name = "recs-api", failureThreshold = 3)
  @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  interface Recs {
    @Fallback(method = "noRecs")
    List<String> recommendations(String userId) throws IOException;

    @Fallback(method = "cached")
    List<String> trending(int limit) throws IOException;

    @Retry(maxAttempts = 1)
    @Fallback(method = "onlyIo", on = IOException.class)
    String profile(String userId) throws IOException;

    @Retry(maxAttempts = 4, delay = "10ms", jitter = Retry.Jitter.NONE, onResult = IsEmpty.class)
    String lookup(String key);

    void record(String event) throws IOException;

    int count();

    default List<String> noRecs(String userId, Exception cause) {
      return List.of("fallback for " + userId + " after " + cause.getClass().getSimpleName());
    }

    static List<String> cached(int limit) {
      return List.of("cached:" + limit);
    }

    default String onlyIo(String userId, IOException cause) {
      return "offline profile";
    }
  }

  /** Retries results that are empty. */
  static final class IsEmpty implements Predicate<String> {
    @Override
    public boolean test(String value) {
      return value.isEmpty();
    }
  }

  /** Shapes the processor must handle. */
  interface Repository<T extends Comparable<T>> {
    @Retry(maxAttempts = 2, delay = "1ms")
    T find(long id) throws IOException;

    @Retry(maxAttempts = 2, delay = "1ms")
    <R extends Number> R convert(T value, Class<R> type);

    @Retry(maxAttempts = 2, delay = "1ms")
    int sum(int... values);

    @Retry(maxAttempts = 2, delay = "1ms")
    String[] split(String text, char separator);

    @Retry(maxAttempts = 2, delay = "1ms")
    void store(T value) throws IOException, InterruptedException;

    @Retry(maxAttempts = 2, delay = "1ms")
    String clash(String delegate, String registry, String e, String result, String attempt, String guard,
        String failure, String permit, String run, String started);

    @Retry(maxAttempts = 2, delay = "1ms")
    String overloaded(String a);

    @Retry(maxAttempts = 2, delay = "1ms")
    String overloaded(String a, int b);
  }

  interface Base {
    @Retry(maxAttempts = 2, delay = "1ms")
    String inherited() throws IOException;
  }

  interface Derived extends Base {
    String own();
  }

  interface Outer {
    interface Inner {
      @Retry(maxAttempts = 2, delay = "1ms")
      String nested();
    }
  }
}
