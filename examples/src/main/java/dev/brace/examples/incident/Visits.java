package dev.brace.examples.incident;

import dev.brace.examples.RecsClient;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Tags the requests of one caller's visit, so the service can tell a retry (another request of the
 * same visit) from a returning user's next visit. Sits under the wrapper, between it and the HTTP
 * client: Brace still sees the plain user id, which keys its remembered answers, while the service
 * sees {@code user-7/visit-12}. A visit is a thread's current call; the demo's retries and
 * timeouts run on the caller's thread, so every attempt of a visit carries its tag.
 */
final class Visits implements RecsClient {
  private static final ThreadLocal<Long> CURRENT = new ThreadLocal<>();

  private final RecsClient http;
  private final Pacing pacing;

  /**
   * @param http the plain client
   * @param pacing told when a request is on its way, so a pacing that moves the clock itself
   *     knows which callers wait for the service
   */
  Visits(RecsClient http, Pacing pacing) {
    this.http = Objects.requireNonNull(http, "http");
    this.pacing = Objects.requireNonNull(pacing, "pacing");
  }

  /** Marks the calling thread's requests, until {@link #end()}, as those of {@code visit}. */
  static void begin(long visit) {
    CURRENT.set(visit);
  }

  static void end() {
    CURRENT.remove();
  }

  @Override
  public List<String> recommendations(String userId) throws IOException {
    Long visit = CURRENT.get();
    pacing.requestSent();
    try {
      return http.recommendations(visit == null ? userId : userId + "/visit-" + visit);
    } finally {
      pacing.requestEnded();
    }
  }
}
