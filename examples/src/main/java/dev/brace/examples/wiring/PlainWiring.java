package dev.brace.examples.wiring;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.runtime.Registry;
import java.net.URI;

/** The same object graph as {@link RecsComponent}, wired by hand: no container, one constructor call each. */
public final class PlainWiring {
  private PlainWiring() {}

  /**
   * @param baseUri where the recommendations service is
   * @param registry the registry to share instances through
   * @return the page, with the resilient client
   */
  public static RecommendationsPage page(URI baseUri, Registry registry) {
    RecsClient plain = new HttpRecsClient(HttpRecsClient.defaultHttpClient(), baseUri);
    RecsClient resilient = ResilientRecsClient.wrap(plain, registry);
    return new RecommendationsPage(resilient);
  }
}
