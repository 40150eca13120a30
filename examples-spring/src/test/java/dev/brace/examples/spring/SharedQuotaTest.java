package dev.brace.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Two instances of the example service, started as two applications on their own ports, share the
 * recommendations quota in one real redis-server. During the run the quota is raised on both, with
 * no restart: on one by {@code POST /actuator/refresh} after its imported settings file changed (a
 * config server, a mounted config map), on the other by {@code POST /actuator/brace/reconfigure}
 * after its environment changed in a way Spring does not announce. The bucket in Redis is kept.
 */
class SharedQuotaTest {
  private static final String PERMITS = "brace.ratelimit.recs-quota.permits";
  /** Four an hour, so none comes back while the test runs. */
  private static final String QUOTA_OF_FOUR = "brace.ratelimit.recs-quota.per=1h\n" + PERMITS + "=4\n";

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<ConfigurableApplicationContext> instances = new java.util.ArrayList<>();

  @BeforeAll
  static void redis() {
    ExampleRedis.server();
  }

  @AfterEach
  void stop() {
    instances.forEach(ConfigurableApplicationContext::close);
  }

  /** One instance: its own port and its own settings file, the example's application.yml, the shared Redis. */
  private ConfigurableApplicationContext start(Path settings) throws IOException {
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, QUOTA_OF_FOUR);
    ConfigurableApplicationContext instance = new SpringApplicationBuilder(RecsApplication.class).run(
        "--server.port=0",
        "--spring.config.import=optional:file:" + settings,
        "--spring.data.redis.host=127.0.0.1",
        "--spring.data.redis.port=" + ExampleRedis.server().port());
    instances.add(instance);
    return instance;
  }

  private static int port(ConfigurableApplicationContext instance) {
    return ((WebServerApplicationContext) instance).getWebServer().getPort();
  }

  private String recommendations(ConfigurableApplicationContext instance, String user) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(instance) + "/recs/" + user)).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  private HttpResponse<String> post(ConfigurableApplicationContext instance, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(instance) + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String brace(ConfigurableApplicationContext instance) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(instance) + "/actuator/brace")).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** @return how many of these calls the service got, the others answered with the editors' picks */
  private int served(ConfigurableApplicationContext instance, int calls) throws Exception {
    RecsService service = instance.getBean(RecsService.class);
    int before = service.requests();
    for (int i = 0; i < calls; i++) {
      String body = recommendations(instance, "u" + i);
      assertThat(body).matches(".*(book-for-u|editors-pick-1).*");
    }
    return service.requests() - before;
  }

  @Test
  void aSharedQuotaIsRaisedLiveOnBothInstancesOneByRefreshTheOtherByTheBraceEndpoint() throws Exception {
    Path firstSettings = Path.of("target", "shared-quota", "first.properties");
    ConfigurableApplicationContext first = start(firstSettings);
    ConfigurableApplicationContext second = start(Path.of("target", "shared-quota", "second.properties"));

    assertThat(served(first, 1)).isEqualTo(1);
    assertThat(served(second, 1)).isEqualTo(1);
    assertThat(brace(first)).as("one quota, two spent").contains("\"availablePermits\":2");

    // The first instance: its settings file changes, and a refresh applies it.
    Files.writeString(firstSettings, QUOTA_OF_FOUR.replace(PERMITS + "=4", PERMITS + "=8"));
    HttpResponse<String> refreshed = post(first, "/actuator/refresh");
    assertThat(refreshed.statusCode()).isEqualTo(200);
    assertThat(refreshed.body()).contains(PERMITS);
    // The second: its environment changes without Spring announcing it; the endpoint applies it.
    second.getEnvironment().getPropertySources().addFirst(new MapPropertySource("operator", Map.of(PERMITS, "8")));
    HttpResponse<String> reconfigured = post(second, "/actuator/brace/reconfigure");
    assertThat(reconfigured.statusCode()).isEqualTo(200);

    for (ConfigurableApplicationContext instance : List.of(first, second)) {
      assertThat(brace(instance)).contains("\"permits\":\"8\"")
          .as("half the old quota was spent: half of the new one is left, from the bucket Redis kept")
          .contains("\"availablePermits\":4");
    }
    assertThat(served(first, 3) + served(second, 3)).as("the raised quota, shared").isEqualTo(4);
    assertThat(served(first, 2) + served(second, 2)).as("spent, on both").isZero();
  }
}
