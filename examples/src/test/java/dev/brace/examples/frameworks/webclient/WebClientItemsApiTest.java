package dev.brace.examples.frameworks.webclient;

import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.BROKEN;
import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.HANG;
import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.UNAVAILABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;

/**
 * The Spring HTTP interface on {@code WebClient}, wrapped, against a real local HTTP server: every
 * pattern acts on the request, which runs at subscription.
 */
class WebClientItemsApiTest {
  private static final Duration LONGEST = Duration.ofSeconds(10);

  private final NettyItemsServer server = new NettyItemsServer();
  private final List<Event> events = new CopyOnWriteArrayList<>();

  /**
   * The first request of a JVM loads WebClient and reactor-netty, which on a loaded machine takes
   * longer than the example's 1 s timeout: done once, before any call the tests count or time.
   */
  @BeforeAll
  static void warmUp() {
    try (NettyItemsServer warm = new NettyItemsServer()) {
      WebClientItems.plain(warm.uri()).item("0").block(LONGEST);
    }
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private WebClientItemsApi items(Registry registry) {
    registry.subscribe(events::add);
    return WebClientItems.resilient(server.uri(), registry);
  }

  private WebClientItemsApi items() {
    return items(Registry.builder().build());
  }

  private List<Event> events(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).toList();
  }

  @Test
  void callingTheMethodSendsNothingUntilTheMonoIsSubscribed() {
    WebClientItemsApi items = items();

    Mono<String> item = items.item("7");

    assertEquals(0, server.requests());
    assertEquals("item-7", item.block(LONGEST));
    assertEquals("item-7", item.block(LONGEST), "each subscription is a call of its own");
    assertEquals(2, server.requests());
  }

  @Test
  void a503IsRetriedWithANewRequestAndThe200Answers() {
    server.then(UNAVAILABLE);

    assertEquals("item-42", items().item("42").block(LONGEST));

    assertEquals(2, server.requests());
    assertEquals(WebClientResponseException.ServiceUnavailable.class.getName(),
        events("retry.attempt_failed").get(0).attributes().get("exception"));
  }

  @Test
  void aRefusedConnectionIsRetriedThroughItsIOExceptionCauseThenAnsweredByTheFallback() {
    URI closed = server.uri();
    server.close();

    Registry registry = Registry.builder().build();
    registry.subscribe(events::add);
    String item = WebClientItems.resilient(closed, registry).item("1").block(LONGEST);

    assertEquals("unknown", item);
    List<Event> failed = events("retry.attempt_failed");
    assertEquals(3, failed.size(), "on = IOException.class matches WebClientRequestException caused by one");
    assertEquals(WebClientRequestException.class.getName(), failed.get(0).attributes().get("exception"));
  }

  @Test
  void failuresOpenTheBreakerWhichThenAnswersWithoutARequest() {
    server.always(BROKEN);
    Registry registry = Registry.builder().build();
    WebClientItemsApi items = items(registry);

    for (int call = 0; call < 3; call++) {
      assertEquals("unknown", items.item("1").block(LONGEST), "a 500 is not retried, and the fallback answers it");
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("items-webclient").state());
    assertEquals(3, server.requests(), "three 500s, one request each");

    assertEquals("unknown", items.item("1").block(LONGEST));
    assertEquals(3, server.requests(), "refused by the open breaker: no request");
  }

  @ParameterizedTest
  @EnumSource(Timeout.Mode.class)
  void aHangingAnswerIsCutAtTheTimeoutAndTheRequestGivenUp(Timeout.Mode mode) throws Exception {
    server.then(HANG);
    // Either mode cancels the subscription at the deadline: no thread waits to be interrupted or left.
    Registry registry = Registry.builder().timeout("WebClientItemsApi.item", t -> t.mode(mode)).build();
    WebClientItemsApi items = items(registry);
    long started = System.nanoTime();

    String item = items.item("9").block(LONGEST);

    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertEquals("unknown", item);
    assertTrue(took.compareTo(Duration.ofSeconds(1)) >= 0, "took " + took);
    assertEquals(1, events("timeout.exceeded").size());
    assertTrue(server.awaitGivenUp(10), "the connection of the timed-out request is closed");
    assertEquals(1, server.requests(), "a timeout is not an IOException: not retried");
  }

  @Test
  void theFallbackAnswersWhatTheRetryCouldNotFix() {
    server.always(UNAVAILABLE);

    assertEquals("unknown", items().item("3").block(LONGEST));

    assertEquals(3, server.requests());
    assertEquals(1, events("fallback.used").size());
  }

  @Test
  void aStreamThatFailsBeforeItsFirstLineIsRetried() {
    server.then(UNAVAILABLE);

    List<String> lines = items().lines("5").collectList().block(LONGEST);

    assertEquals(List.of("5-a", "5-b", "5-c"), lines);
    assertEquals(2, server.requests());
  }

  @Test
  void aStreamThatCannotStartIsAnsweredByItsFallback() {
    server.always(UNAVAILABLE);

    assertEquals(List.of(), items().lines("5").collectList().block(LONGEST));
    assertEquals(3, server.requests());
  }
}
