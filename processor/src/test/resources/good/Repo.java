package p;

import dev.brace.Retry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

@Retry
public interface Repo<T extends Comparable<T>> {
  T get(long id) throws IOException, TimeoutException;

  <R extends Number & Comparable<R>> R max(List<? extends R> values);

  void putAll(String... items);

  int[] sizes(byte[][] data, char c, boolean flag, double d, float f, short s);

  void clear();

  List<T> fetch(int limit);

  List<T> fetch(String filter);
}
