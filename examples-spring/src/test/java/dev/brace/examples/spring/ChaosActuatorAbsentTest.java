package dev.brace.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The safety of the switch: with fault injection switched on but {@code brace.chaos.actuator} not
 * set, {@code POST /actuator/brace/chaos/{name}} does not exist, and the service answers as always.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "brace.chaos.enabled=true")
class ChaosActuatorAbsentTest {
  @LocalServerPort
  int port;

  @Test
  void withoutBraceChaosActuatorThereIsNoSwitch() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> attempt = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
        + "/actuator/brace/chaos/recs-api")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"faultRate\": 1}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(attempt.statusCode()).isEqualTo(404);
    HttpResponse<String> recs = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/recs/ada")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(recs.body()).isEqualTo("[\"book-for-ada\",\"film-for-ada\"]");
  }
}
