package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.Timeout;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * Two Spring Boot applications over real HTTP, both with {@code brace.deadline.header:
 * Request-Timeout}. The upstream one calls the downstream one through Brace-wrapped clients made
 * from Spring Boot's {@code RestClient} and {@code WebClient} builders, each with a 300 ms
 * timeout; the downstream one handles the request under the deadline it carries and calls a
 * Brace-wrapped dependency of its own (5 s timeout) that hangs. The downstream sees the shrunk
 * budget in the header, its own call stops when that budget is spent, and the upstream call ends
 * in about 300 ms.
 */
class CrossServiceDeadlineTest {
  private static final String HEADER = "Request-Timeout";
  private static final long SLACK_MILLIS = 700;

  /** The downstream application's dependency: hangs far past any deadline. */
  public interface Warehouse {
    @Timeout("5s")
    String count(String item) throws InterruptedException;
  }

  /** The upstream application's client of the downstream one. */
  public interface Stock {
    @Timeout("300ms")
    String count(String item);

    @Timeout("300ms")
    CompletableFuture<String> countAsync(String item);

    /** Not annotated, so passed straight through: warms the client up before a timed call. */
    CompletableFuture<String> budgetAsync();
  }

  /** What the downstream application saw of one request. */
  record Seen(String header, long budgetMillis, long tookMillis, String failure) {}

  static final BlockingQueue<Seen> SEEN = new LinkedBlockingQueue<>();

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Downstream {
    @Bean
    Warehouse warehouse() {
      return item -> {
        Thread.sleep(60_000);
        return "too late";
      };
    }

    @Bean
    WarehouseController warehouseController(Warehouse warehouse) {
      return new WarehouseController(warehouse);
    }
  }

  @RestController
  static class WarehouseController {
    private final Warehouse warehouse;

    WarehouseController(Warehouse warehouse) {
      this.warehouse = warehouse;
    }

    @GetMapping("/count/{item}")
    ResponseEntity<String> count(@PathVariable String item, @RequestHeader(name = HEADER, required = false) String header) {
      long budget = Deadline.current().map(deadline -> deadline.remaining().toMillis()).orElse(-1L);
      long start = System.nanoTime();
      try {
        String count = warehouse.count(item);
        SEEN.add(new Seen(header, budget, millisSince(start), null));
        return ResponseEntity.ok(count);
      } catch (Exception failure) {
        SEEN.add(new Seen(header, budget, millisSince(start), failure.getClass().getSimpleName()));
        return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).body(failure.getMessage());
      }
    }

    @GetMapping("/budget")
    String budget() {
      return Deadline.current().map(deadline -> Long.toString(deadline.budget().toMillis())).orElse("none");
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Upstream {
    @Bean
    Stock stock(RestClient.Builder rest, WebClient.Builder web, @Value("${downstream.url}") String url) {
      RestClient client = rest.baseUrl(url).build();
      WebClient reactive = web.baseUrl(url).build();
      return new Stock() {
        @Override
        public String count(String item) {
          return client.get().uri("/count/{item}", item).retrieve().body(String.class);
        }

        @Override
        public CompletableFuture<String> countAsync(String item) {
          return reactive.get().uri("/count/{item}", item).retrieve().bodyToMono(String.class).toFuture();
        }

        @Override
        public CompletableFuture<String> budgetAsync() {
          return reactive.get().uri("/budget").retrieve().bodyToMono(String.class).toFuture();
        }
      };
    }
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveDownstream {
    @Bean
    ReactiveBudget reactiveBudget() {
      return new ReactiveBudget();
    }
  }

  @RestController
  static class ReactiveBudget {
    @GetMapping("/budget")
    Mono<String> budget() {
      return Mono.just(Deadline.current().map(deadline -> Long.toString(deadline.budget().toMillis())).orElse("none"));
    }
  }

  private ConfigurableApplicationContext downstream;
  private ConfigurableApplicationContext upstream;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void startBoth() {
    SEEN.clear();
    downstream = new SpringApplicationBuilder(Downstream.class).web(WebApplicationType.SERVLET)
        .properties(Map.of("server.port", "0", "brace.deadline.header", HEADER, "spring.main.banner-mode", "off"))
        .run();
    upstream = new SpringApplicationBuilder(Upstream.class).web(WebApplicationType.NONE)
        .properties(Map.of("brace.deadline.header", HEADER, "downstream.url", url(downstream), "spring.main.banner-mode", "off"))
        .run();
  }

  @AfterEach
  void stopBoth() {
    upstream.close();
    downstream.close();
  }

  private static String url(ConfigurableApplicationContext context) {
    return "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
  }

  private static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @Test
  void aRestClientCallPassesItsShrunkBudgetDownstreamWhichStopsInTime() throws Exception {
    Stock stock = upstream.getBean(Stock.class);
    long start = System.nanoTime();

    // Its own timeout, or the downstream's 504 when that, sent a little less time, answers first.
    assertThatThrownBy(() -> stock.count("bolts")).isInstanceOfAny(
        dev.brace.runtime.TimeoutExceededException.class, org.springframework.web.client.HttpServerErrorException.class);

    assertThat(millisSince(start)).isLessThan(300 + SLACK_MILLIS);
    assertDownstreamStoppedWithinTheBudgetItWasSent();
  }

  @Test
  void aWebClientCallPassesItsShrunkBudgetDownstreamToo() throws Exception {
    Stock stock = upstream.getBean(Stock.class);
    // The client's first exchange sets up its event loop, which on a loaded machine can take longer
    // than the whole 300 ms budget: the budget is for the request, not for that.
    assertThat(stock.budgetAsync().get(30, TimeUnit.SECONDS)).isEqualTo("none");
    long start = System.nanoTime();

    assertThatThrownBy(() -> stock.countAsync("nuts").get(10, TimeUnit.SECONDS)).cause().isInstanceOfAny(
        dev.brace.runtime.TimeoutExceededException.class,
        org.springframework.web.reactive.function.client.WebClientResponseException.class);

    assertThat(millisSince(start)).isLessThan(300 + SLACK_MILLIS);
    assertDownstreamStoppedWithinTheBudgetItWasSent();
  }

  private static void assertDownstreamStoppedWithinTheBudgetItWasSent() throws InterruptedException {
    Seen seen = SEEN.poll(10, TimeUnit.SECONDS);
    assertThat(seen).as("the downstream handled the request").isNotNull();
    long sent = Long.parseLong(seen.header());
    assertThat(sent).as("what was left of the upstream call's 300 ms").isBetween(1L, 300L);
    assertThat(seen.budgetMillis()).as("the request ran under that deadline").isBetween(0L, sent);
    assertThat(seen.failure()).isEqualTo(DeadlineExceededException.class.getSimpleName());
    assertThat(seen.tookMillis()).as("its 5 s call stopped when the budget was spent").isLessThan(sent + SLACK_MILLIS);
  }

  @Test
  void aRequestWithoutTheHeaderOrWithAMalformedOneRunsWithoutADeadline() throws Exception {
    assertThat(get(url(downstream) + "/budget", "250")).isEqualTo("250");
    assertThat(get(url(downstream) + "/budget", null)).isEqualTo("none");
    assertThat(get(url(downstream) + "/budget", "1.5s")).as("ignored, never a failed request").isEqualTo("none");
    assertThat(get(url(downstream) + "/budget", "-20")).isEqualTo("none");
  }

  @Test
  void aReactiveApplicationOpensTheDeadlineToo() throws Exception {
    try (ConfigurableApplicationContext reactive = new SpringApplicationBuilder(ReactiveDownstream.class)
        .web(WebApplicationType.REACTIVE)
        .properties(Map.of("server.port", "0", "brace.deadline.header", HEADER, "spring.main.banner-mode", "off"))
        .run()) {
      assertThat(get(url(reactive) + "/budget", "400")).isEqualTo("400");
      assertThat(get(url(reactive) + "/budget", "soon")).isEqualTo("none");
    }
  }

  private String get(String url, String header) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (header != null) {
      request.header(HEADER, header);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }
}
