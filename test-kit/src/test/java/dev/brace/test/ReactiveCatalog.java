package dev.brace.test;

import dev.brace.Fallback;
import dev.brace.Retry;
import java.io.IOException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The catalog as Mono and Flux methods. */
public interface ReactiveCatalog {
  @Retry(maxAttempts = 3, delay = "100ms", multiplier = 1.0, jitter = Retry.Jitter.NONE, on = IOException.class)
  @Fallback(method = "unknown")
  Mono<String> item(String id);

  @Retry(maxAttempts = 3, delay = "100ms", multiplier = 1.0, jitter = Retry.Jitter.NONE, on = IOException.class)
  Flux<String> items();

  default String unknown(String id, Exception cause) {
    return Catalog.UNKNOWN;
  }
}
