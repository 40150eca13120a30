package dev.brace.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A game day over real HTTP: the example application, healthy, started with fault injection and its
 * actuator switch allowed; {@code POST /actuator/brace/chaos/recs-api} makes the recommendations
 * call fail without reaching the service, the API answers with the fallback, {@code /actuator/brace}
 * lists the injection, and the same operation with {@code {"enabled": false}} ends it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "brace.chaos.enabled=true",
    "brace.chaos.actuator=true",
    // A rehearsal of the fallback, not of the breaker: it stays closed here.
    "brace.circuitbreaker.recs-api.failure-threshold=1000"})
class ChaosActuatorTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @LocalServerPort
  int port;

  @Autowired
  RecsService service;

  @AfterEach
  void switchOff() throws Exception {
    post("/actuator/brace/chaos/recs-api", "{\"enabled\": false}");
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anInjectionSwitchedOnOverHttpIsAnsweredByTheFallbackAndSwitchedOffAgain() throws Exception {
    assertThat(get("/recs/ada").body()).isEqualTo("[\"book-for-ada\",\"film-for-ada\"]");
    int requests = service.requests();

    HttpResponse<String> on = post("/actuator/brace/chaos/recs-api",
        "{\"faultRate\": 1, \"fault\": \"java.lang.IllegalStateException\", \"seed\": 7}");
    assertThat(on.statusCode()).isEqualTo(200);
    assertThat(on.body()).contains("\"active\":true").contains("\"faultRate\":\"1.0\"").contains("Recommendations.forUser");

    assertThat(get("/recs/ada").body()).isEqualTo("[\"editors-pick-1\",\"editors-pick-2\"]");
    assertThat(service.requests()).as("an injected fault never reaches the service").isEqualTo(requests);
    assertThat(get("/actuator/brace").body()).contains("\"chaos\":{\"recs-api\":{\"kind\":\"chaos\"")
        .contains("\"fault\":\"java.lang.IllegalStateException\"");

    HttpResponse<String> off = post("/actuator/brace/chaos/recs-api", "{\"enabled\": false}");
    assertThat(off.statusCode()).isEqualTo(200);
    assertThat(off.body()).contains("\"active\":false");
    assertThat(get("/recs/ada").body()).isEqualTo("[\"book-for-ada\",\"film-for-ada\"]");
    assertThat(get("/actuator/brace").body()).doesNotContain("\"chaos\"");
  }

  @Test
  void aRefusedSettingAnswers400AndChangesNothing() throws Exception {
    HttpResponse<String> refused = post("/actuator/brace/chaos/recs-api", "{\"faultRate\": 2}");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("brace.chaos.recs-api.fault-rate=2");
    assertThat(get("/recs/ada").body()).isEqualTo("[\"book-for-ada\",\"film-for-ada\"]");
  }
}
