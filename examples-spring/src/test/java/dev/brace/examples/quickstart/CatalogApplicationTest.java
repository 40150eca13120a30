package dev.brace.examples.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The quick start's test as the page shows it: with the catalog unreachable, the service still
 * answers (the fallback), and Actuator shows the breaker and the call's meters.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.http.serviceclient.catalog.base-url=http://127.0.0.1:1")   // nothing listens there
// This module holds several applications and their application.yml; this one reads the page's, catalog.yml.
@TestPropertySource(properties = "spring.config.name=catalog")
class CatalogApplicationTest {
  @LocalServerPort
  int port;

  @Test
  void theServiceAnswersWhileTheCatalogIsDownAndActuatorShowsIt() {
    RestClient service = RestClient.create("http://localhost:" + port);

    String product = service.get().uri("/products/42").retrieve().body(String.class);
    String brace = service.get().uri("/actuator/brace").retrieve().body(String.class);
    String metrics = service.get().uri("/actuator/prometheus").retrieve().body(String.class);

    assertEquals("product 42 (details unavailable)", product);
    assertTrue(brace.contains("catalog-api"), brace);
    assertTrue(metrics.contains("brace_calls_seconds_count{call=\"CatalogClient.product\""), metrics);
  }
}
