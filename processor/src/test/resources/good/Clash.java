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
