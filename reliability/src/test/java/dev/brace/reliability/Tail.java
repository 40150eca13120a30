package dev.brace.reliability;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Criticality;
import dev.brace.Hedge;
import dev.brace.NotIdempotent;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import java.io.IOException;
import java.net.ConnectException;

/**
 * The client {@link NewFeaturesBadInputTest} feeds bad input through ({@code ResilientTail}):
 * every pattern of the second milestone on one dependency, {@code tail-api} — a breaker that
 * judges slow calls, an adaptive limiter, an adaptive bulkhead with criticality shares — a hedged
 * read that answers from memory when it fails, and a write that must not be repeated.
 */
@CircuitBreaker(name = "tail-api", slowCall = "1s", slowCallRate = 0.5, windowCalls = 20, minimumCalls = 10)
@RateLimit(name = "tail-api", permits = 1000, adaptive = true)
@Bulkhead(name = "tail-api", maxConcurrent = 4, adaptive = Bulkhead.Adaptive.AIMD, minConcurrent = 2, initialConcurrent = 3)
public interface Tail {

  /**
   * @param id what to read
   * @return the answer, or the latest one for {@code id} when the dependency fails
   * @throws IOException when the dependency fails and nothing is remembered
   */
  @Hedge(delay = "50ms", maxHedges = 2)
  @StaleIfError(maxAge = "1m")
  @Criticality(Criticality.Level.SHEDDABLE)
  String read(String id) throws IOException;

  /**
   * @param id what to write
   * @return the dependency's receipt
   * @throws IOException when the dependency fails
   */
  @NotIdempotent
  @Retry(maxAttempts = 2, delay = "0ms", on = ConnectException.class)
  String write(String id) throws IOException;
}
