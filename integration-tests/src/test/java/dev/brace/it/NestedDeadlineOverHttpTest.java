package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The promise, end to end through generated wrappers: a 300 ms outer call over two inner
 * calls with 2 s timeouts, each with a retry and a breaker, against a real local HTTP server that
 * hangs, returns in about 300 ms; the inner failures are {@link DeadlineExceededException}s that
 * no breaker counted, and the second inner call never reached the server. Sync (the JDK client's
 * blocking send, interrupted) and async (its future, cancelled).
 */
class NestedDeadlineOverHttpTest {
  /** A loaded two-core machine may start a thread or run a timer late by this much. */
  private static final Duration SLACK = Duration.ofMillis(700);
  private static final Duration OUTER = Duration.ofMillis(300);

  interface Inventory {
    @Timeout("2s")
    @Retry(maxAttempts = 3, delay = "10ms", on = Exception.class)
    @CircuitBreaker(name = "inventory-api", failureThreshold = 1)
    String stock(String id) throws IOException, InterruptedException;

    @Timeout("2s")
    @Retry(maxAttempts = 3, delay = "10ms", on = Exception.class)
    @CircuitBreaker(name = "inventory-api-async", failureThreshold = 1)
    CompletableFuture<String> stockAsync(String id);
  }

  interface Pricing {
    @Timeout("2s")
    @Retry(maxAttempts = 3, delay = "10ms", on = Exception.class)
    @CircuitBreaker(name = "pricing-api", failureThreshold = 1)
    String price(String id) throws IOException, InterruptedException;

    @Timeout("2s")
    @Retry(maxAttempts = 3, delay = "10ms", on = Exception.class)
    @CircuitBreaker(name = "pricing-api-async", failureThreshold = 1)
    CompletableFuture<String> priceAsync(String id);
  }

  interface Storefront {
    @Timeout("300ms")
    String page(String id) throws Exception;

    @Timeout("300ms")
    CompletableFuture<String> pageAsync(String id);
  }

  private HttpServer server;
  private ExecutorService serverThreads;
  private final CountDownLatch released = new CountDownLatch(1);
  private final AtomicInteger stockRequests = new AtomicInteger();
  private final AtomicInteger priceRequests = new AtomicInteger();
  private final HttpClient http = HttpClient.newHttpClient();
  private final Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
  private final List<Event> exceeded = new CopyOnWriteArrayList<>();
  private final List<Throwable> innerFailures = new CopyOnWriteArrayList<>();
  private URI base;

  @BeforeEach
  void startAServerThatHangs() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    serverThreads = Executors.newCachedThreadPool();
    server.setExecutor(serverThreads);
    server.createContext("/ping", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.createContext("/", exchange -> {
      (exchange.getRequestURI().getPath().startsWith("/price") ? priceRequests : stockRequests).incrementAndGet();
      try {
        released.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
      }
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    warmUp();
    registry.subscribe(event -> {
      if (event.kind().equals("deadline.exceeded")) {
        exceeded.add(event);
      }
    });
  }

  /** The client's first request sets up its connection machinery, which the budgets are not for. */
  private void warmUp() {
    try {
      http.send(get("ping"), HttpResponse.BodyHandlers.discarding());
    } catch (IOException | InterruptedException unexpected) {
      throw new AssertionError("the local server did not answer", unexpected);
    }
  }

  @AfterEach
  void stop() {
    released.countDown();
    server.stop(0);
    serverThreads.shutdownNow();
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).build();
  }

  /** The inner clients, as an application writes them: blocking sends and futures of the JDK client. */
  private final class HttpInventory implements Inventory, Pricing {
    @Override
    public String stock(String id) throws IOException, InterruptedException {
      return http.send(get("stock/" + id), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public CompletableFuture<String> stockAsync(String id) {
      return http.sendAsync(get("stock/" + id), HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body);
    }

    @Override
    public String price(String id) throws IOException, InterruptedException {
      return http.send(get("price/" + id), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Override
    public CompletableFuture<String> priceAsync(String id) {
      return http.sendAsync(get("price/" + id), HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body);
    }
  }

  /** The outer service: one page from two inner calls, each failure kept for the test to look at. */
  private Storefront storefront() {
    HttpInventory clients = new HttpInventory();
    Inventory inventory = ResilientNestedDeadlineOverHttpTest_Inventory.wrap(clients, registry);
    Pricing pricing = ResilientNestedDeadlineOverHttpTest_Pricing.wrap(clients, registry);
    Storefront plain = new Storefront() {
      @Override
      public String page(String id) throws Exception {
        String stock = kept(() -> inventory.stock(id));
        String price = kept(() -> pricing.price(id));
        if (!innerFailures.isEmpty()) {
          throw (Exception) innerFailures.get(0);
        }
        return stock + price;
      }

      @Override
      public CompletableFuture<String> pageAsync(String id) {
        return inventory.stockAsync(id)
            .whenComplete((value, failure) -> keep(failure))
            .handle((value, failure) -> value)
            .thenCompose(stock -> pricing.priceAsync(id).whenComplete((value, failure) -> keep(failure)));
      }
    };
    return ResilientNestedDeadlineOverHttpTest_Storefront.wrap(plain, registry);
  }

  private interface Blocking {
    String call() throws Exception;
  }

  private String kept(Blocking inner) {
    try {
      return inner.call();
    } catch (Exception failure) {
      keep(failure);
      return null;
    }
  }

  private void keep(Throwable failure) {
    if (failure != null) {
      innerFailures.add(failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure);
    }
  }

  @Test
  void aSyncCallOverTwoHangingInnerCallsReturnsAtItsDeadline() throws Exception {
    Storefront storefront = storefront();
    long start = System.nanoTime();

    Exception outer = assertThrows(Exception.class, () -> storefront.page("p1"));

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertWithinTheDeadline(took);
    // The outer call's own timeout, whether its timer or an inner call reached the 300 ms first.
    assertInstanceOf(TimeoutExceededException.class, outer);
    assertTrue(!(outer instanceof DeadlineExceededException), "the outer call's own timeout expired: " + outer);
    assertEquals(2, innerFailures.size(), "the sync page makes both inner calls: " + innerFailures);
    assertInnerCallsRanOutOfTime("inventory-api", "pricing-api");
  }

  @Test
  void anAsyncCallOverTwoHangingInnerCallsReturnsAtItsDeadline() throws Exception {
    Storefront storefront = storefront();
    long start = System.nanoTime();

    CompletableFuture<String> page = storefront.pageAsync("p1");
    ExecutionException outer = assertThrows(ExecutionException.class, () -> page.get(10, TimeUnit.SECONDS));

    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertWithinTheDeadline(took);
    assertInstanceOf(TimeoutExceededException.class, outer.getCause());
    assertTrue(!(outer.getCause() instanceof DeadlineExceededException), "the outer call's own timeout: " + outer.getCause());
    // The second inner call follows the first's failure; once the outer call has given up (its
    // future cancelled) it is not started at all, else it fails at once for want of time.
    awaitInnerFailures(1);
    assertInnerCallsRanOutOfTime("inventory-api-async", "pricing-api-async");
  }

  @Test
  void anExplicitDeadlineBoundsTheCallsMadeUnderIt() throws Exception {
    Inventory inventory = ResilientNestedDeadlineOverHttpTest_Inventory.wrap(new HttpInventory(), registry);
    long start = System.nanoTime();

    assertThrows(DeadlineExceededException.class, () -> Deadline.within(OUTER, () -> inventory.stock("p2")));

    assertWithinTheDeadline(Duration.ofNanos(System.nanoTime() - start));
    assertTrue(stockRequests.get() <= 1, "the retry did not try again past the deadline: " + stockRequests.get());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("inventory-api").state());
  }

  private static void assertWithinTheDeadline(Duration took) {
    assertTrue(took.compareTo(OUTER.minusMillis(20)) >= 0, "returned before its deadline: " + took);
    assertTrue(took.compareTo(OUTER.plus(SLACK)) < 0, "took " + took + ", not about " + OUTER);
  }

  private void awaitInnerFailures(int count) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (innerFailures.size() < count && System.nanoTime() < until) {
      Thread.sleep(5);
    }
  }

  private void assertInnerCallsRanOutOfTime(String firstBreaker, String secondBreaker) {
    assertTrue(!innerFailures.isEmpty() && innerFailures.size() <= 2, "failures " + innerFailures);
    for (Throwable failure : innerFailures) {
      assertInstanceOf(DeadlineExceededException.class, failure, "an inner call ran out of its caller's time: " + failure);
    }
    assertTrue(stockRequests.get() <= 1, "the first inner call's retry did not try again: " + stockRequests.get());
    assertEquals(0, priceRequests.get(), "the second inner call found no time left and never reached the server");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker(firstBreaker).state(), "no breaker counted the deadline");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker(secondBreaker).state(), "no breaker counted the deadline");
    assertTrue(exceeded.size() >= innerFailures.size(), "deadline.exceeded for each inner call: " + exceeded);
    for (Event event : exceeded) {
      assertEquals(300L, event.attributes().get("budget_ms"), "the outer call's budget: " + event.attributes());
    }
  }
}
