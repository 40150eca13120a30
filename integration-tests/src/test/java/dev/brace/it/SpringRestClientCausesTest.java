package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.NotIdempotent;
import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * Spring's RestClient wraps every I/O failure in a {@code ResourceAccessException} whose cause is
 * the {@code IOException}: {@code on = IOException.class} must catch it, in every pattern, as the
 * guide promises. Real RestClient calls, against a local server and a port nobody listens on.
 */
class SpringRestClientCausesTest {

  interface Catalog {
    @Retry(maxAttempts = 3, delay = "0ms", on = IOException.class)
    String item(String id);

    @Retry(maxAttempts = 3, delay = "0ms", on = IOException.class)
    @Fallback(method = "offline", on = IOException.class)
    String itemOrOffline(String id);

    /** Receives the cause that matched: the parameter cannot take a ResourceAccessException. */
    default String offline(String id, IOException cause) {
      return "offline (" + cause.getClass().getSimpleName() + ")";
    }

    @CircuitBreaker(name = "catalog-api", failureThreshold = 2, on = IOException.class)
    String guarded(String id);
  }

  interface Payments {
    @NotIdempotent
    @Retry(maxAttempts = 3, delay = "0ms", on = ConnectException.class)
    String charge(String order);
  }

  private HttpServer server;
  private String live;
  private String dead;
  private final AtomicInteger attempts = new AtomicInteger();
  private final Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      if (path.endsWith("/missing")) {
        exchange.sendResponseHeaders(404, -1);
      } else {
        byte[] body = ("served " + path).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
      exchange.close();
    });
    server.start();
    live = "http://127.0.0.1:" + server.getAddress().getPort();
    try (ServerSocket closedAgain = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      dead = "http://127.0.0.1:" + closedAgain.getLocalPort();
    }
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  /** A real RestClient GET; the attempts up to {@code failing} go to a port that refuses the connection. */
  private String get(String path, int failing) {
    String base = attempts.incrementAndGet() <= failing ? dead : live;
    return RestClient.builder().baseUrl(base).requestFactory(new JdkClientHttpRequestFactory()).build()
        .get().uri(path).retrieve().body(String.class);
  }

  private Catalog catalog(int failing) {
    return ResilientSpringRestClientCausesTest_Catalog.wrap(new Catalog() {
      @Override
      public String item(String id) {
        return get("/items/" + id, failing);
      }

      @Override
      public String itemOrOffline(String id) {
        return get("/items/" + id, failing);
      }

      @Override
      public String guarded(String id) {
        return get("/items/" + id, failing);
      }
    }, registry);
  }

  @Test
  void aRetryOnIOExceptionRetriesTheResourceAccessExceptionOfARefusedConnection() {
    assertEquals("served /items/7", catalog(2).item("7"));
    assertEquals(3, attempts.get(), "two refused connections, then the answer");

    attempts.set(0);
    ResourceAccessException thrown = assertThrows(ResourceAccessException.class, () -> catalog(5).item("7"));
    assertInstanceOf(ConnectException.class, thrown.getCause(), "the exception Spring threw, as it threw it");
    assertEquals(3, attempts.get());
  }

  @Test
  void aRetryOnIOExceptionLeavesAnHttpErrorAlone() {
    HttpClientErrorException notFound = assertThrows(HttpClientErrorException.class, () -> catalog(0).item("missing"));
    assertEquals(404, notFound.getStatusCode().value());
    assertEquals(1, attempts.get(), "a 404 is an answer, not an IOException: not retried");
  }

  @Test
  void aFallbackWhoseParameterTakesIOExceptionReceivesTheCauseSpringWrapped() {
    assertEquals("offline (ConnectException)", catalog(5).itemOrOffline("7"));
    assertEquals(3, attempts.get(), "retried first, then answered by the fallback");
  }

  @Test
  void aBreakerOnIOExceptionCountsTheResourceAccessException() {
    Catalog catalog = catalog(2);
    assertThrows(ResourceAccessException.class, () -> catalog.guarded("1"));
    assertThrows(ResourceAccessException.class, () -> catalog.guarded("2"));
    assertThrows(CircuitOpenException.class, () -> catalog.guarded("3"), "two counted failures opened it");
    assertEquals(2, attempts.get());
  }

  @Test
  void aChargeWhoseConnectionWasRefusedIsSentAgain() {
    Payments payments = ResilientSpringRestClientCausesTest_Payments.wrap(order -> get("/charges/" + order, 1), registry);
    assertEquals("served /charges/42", payments.charge("42"));
    assertEquals(2, attempts.get(), "a ResourceAccessException caused by a ConnectException was never sent");
  }
}
