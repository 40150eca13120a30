package dev.brace.test.spring;

import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import org.springframework.web.client.HttpServerErrorException;

/** A quote service's client, as a Spring HTTP interface would declare it. */
public interface Quotes {
  @Retry(maxAttempts = 2, delay = "10ms", jitter = Retry.Jitter.NONE, on = HttpServerErrorException.class)
  @CircuitBreaker(name = "quotes-api", failureThreshold = 3, resetTimeout = "30s")
  String quote(String symbol);
}
