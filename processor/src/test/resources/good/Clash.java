package p;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;

public interface Clash {
  @Retry(onResult = NotNull.class)
  @Timeout("1s")
  @Fallback(method = "fallback")
  String call(
      String delegate,
      String registry,
      int e,
      String result,
      int attempt,
      Object guard,
      Exception failure,
      Object permit,
      Object run,
      long started,
      String fallbackFailure);

  /** Its parameters take the names of the locals of a method that calls its delegate itself. */
  @Retry
  int count(String at, String held, int result, Throwable failure, long at2);

  default String fallback(
      String delegate,
      String registry,
      int e,
      String result,
      int attempt,
      Object guard,
      Exception failure,
      Object permit,
      Object run,
      long started,
      String fallbackFailure,
      Throwable cause) {
    return "";
  }
}
