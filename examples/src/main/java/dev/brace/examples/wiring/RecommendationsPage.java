package dev.brace.examples.wiring;

import dev.brace.examples.RecsClient;
import java.io.IOException;
import java.util.Objects;
import javax.inject.Inject;

/**
 * Application code: it asks for a {@link RecsClient} and neither knows nor cares that it gets the
 * resilient one. Dagger calls the {@link Inject} constructor; plain wiring calls it by hand.
 */
public final class RecommendationsPage {
  private final RecsClient recs;

  /** @param recs the client, as the wiring provides it */
  @Inject
  public RecommendationsPage(RecsClient recs) {
    this.recs = Objects.requireNonNull(recs, "recs");
  }

  /**
   * @param userId whose page
   * @return one line with the user's recommendations
   * @throws IOException never with the resilient client, whose fallback answers instead
   */
  public String render(String userId) throws IOException {
    return "for " + userId + ": " + String.join(", ", recs.recommendations(userId));
  }

  /** @return the client it was given (tests look at which one) */
  RecsClient recs() {
    return recs;
  }
}
