package dev.brace.it;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The annotated form of the conformance scenarios. ConformanceTest builds a Stack with the same
 * settings; both forms must behave the same, sync and async.
 */
interface Conformance {
  @Fallback(method = "fallback", on = IllegalStateException.class)
  @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @CircuitBreaker(name = "conformance", failureThreshold = 3, resetTimeout = "10s")
  @Timeout("1s")
  String call(String input) throws IOException;

  @Fallback(method = "fallback", on = IllegalStateException.class)
  @Retry(maxAttempts = 3, delay = "100ms", jitter = Retry.Jitter.NONE, on = IOException.class)
  @CircuitBreaker(name = "conformance", failureThreshold = 3, resetTimeout = "10s")
  @Timeout("1s")
  CompletableFuture<String> callAsync(String input);

  default String fallback(String input, IllegalStateException cause) {
    return "fallback:" + cause.getMessage();
  }
}
