package dev.brace.test.spring;

import dev.brace.Retry;
import feign.FeignException;

/** A price service's client, as an OpenFeign interface would declare it. */
public interface Prices {
  @Retry(maxAttempts = 2, delay = "10ms", jitter = Retry.Jitter.NONE, on = FeignException.class)
  String price(String symbol);
}
