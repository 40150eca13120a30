package dev.brace.examples.capacity;

import dev.brace.RateLimit;
import java.io.IOException;

/**
 * A client of an API that allows 50 calls a second and answers 429 with {@code Retry-After} above
 * that. The limiter is set above the quota, as a team that does not know it would; adaptive, it
 * backs off on every 429 and creeps back on success. The demo's fixed run sets {@code adaptive =
 * false} by configuration.
 */
public interface QuotaClient {

  /** @return the API's answer */
  @RateLimit(name = "quota-api", permits = 200, per = "1s", maxWait = "1s", adaptive = true,
      throttledOn = TooManyRequestsException.class, increase = 0.5)
  String lookup(String user) throws IOException;
}
