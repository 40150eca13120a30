package dev.brace.spring;

import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import java.io.IOException;

/**
 * A partner's API with a quota and a circuit the whole fleet shares, once configuration puts them
 * in Redis ({@code brace.ratelimit.partner-quota.backend: redis}).
 */
@CircuitBreaker(name = "partner-api", failureThreshold = 3, resetTimeout = "1h")
@RateLimit(name = "partner-quota", permits = 4, per = "1h")
public interface Partners {
  /**
   * @param id a partner
   * @return its name
   * @throws IOException when the partner's API fails
   */
  String name(String id) throws IOException;
}
