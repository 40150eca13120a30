package p;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Retry;

public interface Derived extends Base<String> {
  @Bulkhead
  int count();

  @Override
  void reset();
}

@CircuitBreaker(name = "base")
interface Base<E> {
  @Retry
  E load(String key);

  void reset();

  default void close() {}
}
