package dev.brace.test;

import dev.brace.Bulkhead;
import dev.brace.RateLimit;

/** A dependency behind a rate limiter and a bulkhead. */
public interface Stock {
  @RateLimit(name = "stock-api", permits = 5, per = "1s")
  @Bulkhead(name = "stock-pool", maxConcurrent = 2)
  int level(String sku);
}
