package dev.brace.spring;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Hedge;
import dev.brace.RateLimit;
import dev.brace.StaleIfError;

/** An annotated interface with the second milestone's patterns, for properties with bad values. */
@CircuitBreaker(name = "quotes-api", slowCall = "1s")
@RateLimit(name = "quotes-api", permits = 100, adaptive = true)
@Bulkhead(name = "quotes-api", maxConcurrent = 8, adaptive = Bulkhead.Adaptive.VEGAS)
public interface Quotes {
  /**
   * @param symbol a ticker symbol
   * @return its latest quote
   */
  @Hedge(delay = "20ms")
  @StaleIfError(maxAge = "5m")
  String latest(String symbol);
}
