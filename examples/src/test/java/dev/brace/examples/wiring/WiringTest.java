package dev.brace.examples.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.RecsClient;
import dev.brace.examples.ResilientRecsClient;
import dev.brace.examples.incident.IncidentScript;
import dev.brace.examples.incident.RecsService;
import dev.brace.runtime.Registry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Both wirings hand application code the generated wrapper, which answers from the service, from
 * what it remembered, or from its fallback.
 */
class WiringTest {

  @Test
  void daggerAndPlainWiringBothProvideTheResilientClient() throws Exception {
    // What is tested is the wiring, not the timing: on a loaded machine a fresh JVM's first
    // requests can outlast the client's 300 ms timeout, so this registry allows them 10 s.
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of())
        .timeout("RecsClient.recommendations", t -> t.duration("10s"))
        .build();
    RecommendationsPage dagger;
    RecommendationsPage plain;
    String daggerAnswer;
    String plainAnswer;
    try (RecsService service = RecsService.start(IncidentScript.standard())) {
      warmUp(new HttpRecsClient(HttpRecsClient.defaultHttpClient(), service.uri()));
      dagger = DaggerRecsComponent.factory().create(service.uri(), registry).page();
      plain = PlainWiring.page(service.uri(), registry);

      assertInstanceOf(ResilientRecsClient.class, dagger.recs());
      assertInstanceOf(ResilientRecsClient.class, plain.recs());
      daggerAnswer = dagger.render("ada");
      plainAnswer = plain.render("ada");
      assertTrue(daggerAnswer.startsWith("for ada: item-"), daggerAnswer);
      assertTrue(plainAnswer.startsWith("for ada: item-"), plainAnswer);
    }

    // Service gone: ada gets the answer each wrapper remembered for her (@StaleIfError); a user
    // the service never answered gets the fallback's editors' picks.
    assertEquals(daggerAnswer, dagger.render("ada"), "service gone: ada's earlier answer");
    assertEquals(plainAnswer, plain.render("ada"));
    String editorsPicks = "for bob: " + String.join(", ", RecsClient.EDITORS_PICKS);
    assertEquals(editorsPicks, dagger.render("bob"), "service gone, nothing remembered: the fallback answers");
    assertEquals(editorsPicks, plain.render("bob"));
  }

  /**
   * The first requests of a fresh JVM may outlast the plain client's own 1 s request timeout, and
   * on a loaded machine the JDK's client and server have also lost a first answer's body ("fixed
   * content-length: 23, bytes received: 0", once in a loop of this test): the warm-up is not what
   * the test checks, so any I/O failure of it is tried again.
   */
  private static void warmUp(HttpRecsClient plain) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        plain.recommendations("warm-up");
        return;
      } catch (java.io.IOException slowStart) {
        if (attempt == 10) {
          throw slowStart;
        }
      }
    }
  }
}
