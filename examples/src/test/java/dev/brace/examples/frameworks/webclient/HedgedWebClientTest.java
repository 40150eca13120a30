package dev.brace.examples.frameworks.webclient;

import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.HANG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Hedge;
import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.support.WebClientAdapter;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;
import reactor.core.publisher.Mono;

/**
 * A hedged Spring HTTP interface on {@code WebClient}, against a real local server, with Micrometer
 * bound as the starter binds it: the first request hangs, the hedge's request answers, and the
 * losing request is given up, its connection closed, whether the method returns a {@code Mono} or
 * a {@code CompletableFuture}.
 */
class HedgedWebClientTest {
  private static final Duration LONGEST = Duration.ofSeconds(10);

  /** The items service, hedged after 100 ms without an answer. */
  @HttpExchange(url = "/items", accept = "text/plain")
  public interface HedgedItems {
    /**
     * @param id an item
     * @return its description
     */
    @GetExchange("/{id}")
    @Hedge(delay = "100ms")
    Mono<String> item(@PathVariable("id") String id);

    /**
     * @param id an item
     * @return its description
     */
    @GetExchange("/{id}")
    @Hedge(delay = "100ms")
    CompletableFuture<String> itemLater(@PathVariable("id") String id);
  }

  private final NettyItemsServer server = new NettyItemsServer();

  /** Loads WebClient and reactor-netty once, before any call the tests time. */
  @BeforeAll
  static void warmUp() {
    try (NettyItemsServer warm = new NettyItemsServer()) {
      plain(warm).item("0").block(LONGEST);
    }
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static HedgedItems plain(NettyItemsServer on) {
    WebClient web = WebClient.builder().baseUrl(on.uri().toString()).build();
    return HttpServiceProxyFactory.builderFor(WebClientAdapter.create(web)).build().createClient(HedgedItems.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Mono", "CompletableFuture"})
  void theHedgesAnswerWinsAndTheHangingRequestIsGivenUp(String returned) throws Exception {
    server.then(HANG);
    Registry registry = Registry.builder().build();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Function<HedgedItems, String> call = "Mono".equals(returned)
        ? items -> items.item("5").block(LONGEST)
        : items -> items.itemLater("5").orTimeout(LONGEST.toSeconds(), TimeUnit.SECONDS).join();
    try (AutoCloseable binding = BraceMetrics.bind(registry, meters)) {
      HedgedItems items = ResilientHedgedWebClientTest_HedgedItems.wrap(plain(server), registry);

      assertEquals("item-5", call.apply(items));

      assertEquals(2, server.requests(), "the hanging request, then the hedge's");
      assertTrue(server.awaitGivenUp(10), "the losing request's connection is closed");
      assertEquals(1.0, meters.get("brace.hedge.wins").tag("winner", "hedge").counter().count());
      assertEquals(1L, meters.get("brace.calls").tag("outcome", "success").timer().count());
    }
  }
}
