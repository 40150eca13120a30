package dev.brace.examples.wiring;

import dev.brace.examples.incident.IncidentScript;
import dev.brace.examples.incident.RecsService;
import dev.brace.runtime.Registry;
import java.io.IOException;

/**
 * Starts a healthy service, renders a page through the Dagger-built graph and through the
 * hand-wired one, then stops the service and renders again: the fallback answers.
 * {@code mvn -q -pl examples exec:java -Dexec.mainClass=dev.brace.examples.wiring.WiringExample}
 * (after a build).
 */
public final class WiringExample {
  private WiringExample() {}

  /**
   * @param args none
   * @throws IOException when the service cannot start
   */
  public static void main(String[] args) throws IOException {
    RecommendationsPage daggerPage;
    RecommendationsPage plainPage;
    try (RecsService service = RecsService.start(IncidentScript.standard())) {
      daggerPage = DaggerRecsComponent.factory().create(service.uri(), Registry.defaultRegistry()).page();
      plainPage = PlainWiring.page(service.uri(), Registry.defaultRegistry());
      System.out.println("dagger: " + daggerPage.render("ada"));
      System.out.println("plain:  " + plainPage.render("ada"));
    }
    System.out.println("service stopped");
    System.out.println("dagger: " + daggerPage.render("ada"));
    System.out.println("plain:  " + plainPage.render("ada"));
  }
}
