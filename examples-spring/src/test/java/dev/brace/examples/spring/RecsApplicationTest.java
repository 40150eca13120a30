package dev.brace.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.aot.DisabledInAotMode;

/**
 * The example application started on a random port and used over real HTTP: its API, {@code
 * /actuator/brace}, {@code /actuator/health}, and a setting changed while it runs — in a
 * configuration file the application imports, as a config server or a mounted config map would
 * change it — applied by {@code /actuator/refresh} with the breaker's state kept.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RecsApplicationTest {
  private static final String THRESHOLD = "brace.circuitbreaker.recs-api.failure-threshold";
  private static final Path LIVE_SETTINGS = Path.of("target", "live-settings.properties");

  private static final String IMPORT = "spring.config.import";
  /** Not empty: a refresh replaces the imported file's settings only when the file yields some. */
  private static final String NOTHING_LIVE = "example.live-settings=none\n";

  // As -Dspring.config.import=… on the command line: Spring Cloud's refresh reads the file again
  // (it keeps system properties; properties a test adds to its context it would drop).
  static {
    try {
      Files.createDirectories(LIVE_SETTINGS.getParent());
      Files.writeString(LIVE_SETTINGS, NOTHING_LIVE);
    } catch (IOException unwritable) {
      throw new UncheckedIOException(unwritable);
    }
    System.setProperty(IMPORT, "optional:file:" + LIVE_SETTINGS);
  }

  @AfterAll
  static void forgetImport() {
    System.clearProperty(IMPORT);
  }

  /** Skips the class, loudly, before Spring starts, when there is no redis-server to run against. */
  @BeforeAll
  static void redis() {
    ExampleRedis.server();
  }

  @DynamicPropertySource
  static void redisProperties(DynamicPropertyRegistry properties) {
    ExampleRedis.connect(properties);
  }

  private final HttpClient http = HttpClient.newHttpClient();

  @LocalServerPort
  int port;

  @Autowired
  RecsService service;

  @Autowired
  Inventory inventory;

  @AfterEach
  void restore() throws Exception {
    System.clearProperty(THRESHOLD);
    Files.writeString(LIVE_SETTINGS, NOTHING_LIVE);
    service.down(false);
    post("/actuator/refresh");
    post("/actuator/brace/reconfigure");
    post("/actuator/brace/circuitbreaker/recs-api/reset");
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theApiAnswersThroughTheWrapperAndTheFallbackWhileTheServiceIsDown() throws Exception {
    assertThat(get("/recs/ada").body()).isEqualTo("[\"book-for-ada\",\"film-for-ada\"]");
    service.down(true);
    assertThat(get("/recs/ada").body()).isEqualTo("[\"editors-pick-1\",\"editors-pick-2\"]");
    assertThat(service.requests()).as("one answered, then two attempts of the retry").isEqualTo(3);
  }

  @Test
  void actuatorShowsTheSettingsFromApplicationYmlAndTheBreakerState() throws Exception {
    get("/recs/ada");
    String brace = get("/actuator/brace").body();
    assertThat(brace).contains("\"recs-api\":{\"kind\":\"circuitbreaker\",\"state\":\"CLOSED\"")
        .contains("\"failureThreshold\":\"2\"").contains("\"Recommendations.forUser\"");
    String health = get("/actuator/health").body();
    assertThat(health).contains("\"brace\":{\"details\":{\"circuitBreakers\":{\"recs-api\":{\"state\":\"CLOSED\"}}},\"status\":\"UP\"}");
  }

  @Test
  @DisabledInAotMode("Spring Cloud's refresh scope is not supported ahead of time: the run processed ahead of time"
      + " sets spring.cloud.refresh.enabled=false, as Spring Cloud requires, so there is no /actuator/refresh to test;"
      + " the JVM run keeps this test")
  void aChangedSettingIsAppliedOnRefreshAndTheOpenBreakerStaysOpen() throws Exception {
    service.down(true);
    get("/recs/ada");
    assertThat(get("/actuator/brace").body()).contains("\"state\":\"OPEN\"").contains("\"failureThreshold\":\"2\"");
    int requests = service.requests();

    Files.writeString(LIVE_SETTINGS, NOTHING_LIVE + THRESHOLD + "=5\n");
    HttpResponse<String> refreshed = post("/actuator/refresh");
    assertThat(refreshed.statusCode()).isEqualTo(200);
    assertThat(refreshed.body()).contains(THRESHOLD);

    String brace = get("/actuator/brace").body();
    assertThat(brace).contains("\"failureThreshold\":\"5\"");
    assertThat(brace).contains("\"recs-api\":{\"kind\":\"circuitbreaker\",\"state\":\"OPEN\"");
    assertThat(get("/recs/ada").body()).contains("editors-pick-1");
    assertThat(service.requests()).as("the open breaker still keeps calls from the service").isEqualTo(requests);
    assertThat(get("/actuator/health").body()).contains("\"recs-api\":{\"state\":\"OPEN\"");
  }

  /** Without Spring Cloud, or after a change Spring does not announce (a system property), the endpoint applies it. */
  @Test
  void theBraceEndpointResetsABreakerAndReconfiguresOnRequest() throws Exception {
    service.down(true);
    get("/recs/ada");
    HttpResponse<String> reset = post("/actuator/brace/circuitbreaker/recs-api/reset");
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(reset.body()).contains("\"state\":\"CLOSED\"");

    System.setProperty(THRESHOLD, "7");
    HttpResponse<String> reconfigured = post("/actuator/brace/reconfigure");
    assertThat(reconfigured.statusCode()).isEqualTo(200);
    assertThat(reconfigured.body()).contains("\"failureThreshold\":\"7\"");

    System.setProperty(THRESHOLD, "seven");
    HttpResponse<String> refused = post("/actuator/brace/reconfigure");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(get("/actuator/brace").body()).contains("\"failureThreshold\":\"7\"");
  }

  @Test
  void theQuotaIsTheFleetsOneInTheApplicationsRedis() throws Exception {
    assertThat(get("/recs/ada").body()).contains("book-for-ada");
    assertThat(ExampleRedis.server().command("GET", "brace:ratelimit:recs-quota")).as("the bucket in Redis").isNotNull();
    assertThat(get("/actuator/brace").body())
        .contains("\"recs-quota\":{\"kind\":\"ratelimit\"")
        .contains("\"backend\":\"redis\",\"backendAvailable\":true,\"decidingLocally\":false");
    assertThat(get("/actuator/health/brace-backends").body())
        .contains("\"braceBackends\":{\"components\":{\"redis\":{\"details\":{\"fallback\":\"local\"},\"status\":\"UP\"}}");
    assertThat(get("/actuator/health").body()).as("the backends' own group, not the application's health")
        .doesNotContain("braceBackends");
  }

  @Test
  void aPlainBeanOfAnAnnotatedInterfaceIsInjectedWrapped() throws Exception {
    assertThat(AotDetector.useGeneratedArtifacts()).as("started from the code generated ahead of time in the build's"
        + " second run, and only there").isEqualTo(Boolean.getBoolean("examples.ahead-of-time"));
    assertThat(inventory.getClass().getSimpleName()).isEqualTo("ResilientInventory");
    assertThat(get("/stock/lamp").body()).contains("\"via\":\"ResilientInventory\"").contains("\"inStock\":4");
    assertThat(get("/actuator/brace").body()).contains("\"inventory\":{\"kind\":\"bulkhead\"").contains("\"maxConcurrent\":\"8\"");
  }
}
