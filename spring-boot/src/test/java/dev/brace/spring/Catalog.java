package dev.brace.spring;

import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import java.io.IOException;

/** An annotated interface, as an application would write one: the processor generates ResilientCatalog. */
@CircuitBreaker(name = "catalog-api", failureThreshold = 2, resetTimeout = "1m")
public interface Catalog {
  @Retry(maxAttempts = 2, delay = "1ms", on = IOException.class)
  String item(String id) throws IOException;
}
