package dev.brace.examples.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.frameworks.ItemsServer;
import dev.brace.examples.frameworks.ItemsServer.Answer;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A client that Spring makes, wrapped by the starter with nothing but Brace's annotations on its
 * interface, against the real items server: the wrapper is the bean, a 503 is retried, a dropped
 * connection is caught by {@code on = IOException.class} through the framework's wrapper, the breaker
 * opens and the fallback answers, {@code Retry-After: 1} delays the next attempt by about a second and
 * halves the adaptive limiter's rate, and a timeout releases the caller from a hanging read. Each test
 * gets a fresh application context (breakers and limiters start anew); Brace's timeout is 1 s, the
 * client's read timeout 3 s. Not tighter: the first call of a fresh context, with its connection
 * and the client's classes still cold, has taken over 300 ms on a busy build machine, and a
 * timeout every attempt can meet is what these tests assume.
 */
@SpringBootTest(classes = ClientsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
    "spring.http.serviceclient.items.read-timeout=3s",
    "spring.http.serviceclient.items.connect-timeout=500ms",
    "spring.cloud.openfeign.client.config.cloud-items.read-timeout=3000",
    "spring.cloud.openfeign.client.config.cloud-items.connect-timeout=500",
    "brace.timeout.BootItemsApi.item.duration=1s",
    "brace.timeout.CloudItemsApi.item.duration=1s"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
abstract class SpringMadeClientContract {
  /**
   * The items server's port: a free one the system picks, on the JVM; in the run processed ahead of
   * time, the one the build reserved ({@code examples.items.port}) for both the processing and the
   * run. Spring Cloud OpenFeign resolves a client's {@code url} ({@code ${items.url}}) while the
   * application is processed and writes it into the generated bean definitions, so the port must be
   * known before the processing, and the same when the tests run: a port picked at run time would
   * not be the one the processed client calls.
   */
  private static final int RESERVED_PORT = Integer.getInteger("examples.items.port", 0);

  /**
   * One server for every context, reset between tests; started on first use, never while the tests
   * are processed ahead of time (that reads {@code items.url}, and the JDK server's dispatcher
   * thread, which is not a daemon, would keep the processing JVM from ending).
   */
  private static final class Items {
    static final ItemsServer SERVER = startServer();
  }

  @Autowired
  Registry registry;

  final List<Event> events = new CopyOnWriteArrayList<>();
  private AutoCloseable subscription;

  @DynamicPropertySource
  static void itemsService(DynamicPropertyRegistry properties) {
    properties.add("spring.http.serviceclient.items.base-url", SpringMadeClientContract::itemsUrl);
    properties.add("items.url", SpringMadeClientContract::itemsUrl);
  }

  /** @return the server's address, without starting it when the port is reserved */
  private static String itemsUrl() {
    return RESERVED_PORT == 0 ? server().uri().toString() : "http://127.0.0.1:" + RESERVED_PORT;
  }

  static ItemsServer server() {
    return Items.SERVER;
  }

  /** @return the client bean, as the application injects it */
  abstract Object bean();

  /** @return one call of the client */
  abstract String item(String id);

  /** @return the generated call's name */
  abstract String callName();

  /** @return the name of its breaker and limiter */
  abstract String instanceName();

  /** @return the simple name of what the framework throws for a dropped connection */
  abstract String ioFailureName();

  @BeforeEach
  void listen() {
    server().reset();
    subscription = registry.subscribe(events::add);
  }

  @AfterEach
  void stopListening() throws Exception {
    subscription.close();
  }

  @Test
  void theBeanIsTheGeneratedWrapper() {
    assertEquals(Boolean.getBoolean("examples.ahead-of-time"), AotDetector.useGeneratedArtifacts(),
        "started from the code generated ahead of time in the build's second run, and only there");
    Class<?> api = bean().getClass().getInterfaces()[0];
    assertEquals("Resilient" + api.getSimpleName(), bean().getClass().getSimpleName(), "wrapped by the starter");
  }

  @Test
  void a503IsRetriedAndTheSecondAttemptAnswers() {
    server().then(new Answer.Status(503, null));

    assertEquals("item-1", item("1"));
    assertEquals(2, server().requests().size());
  }

  @Test
  void anIoFailureIsCaughtByOnIoException() {
    // Two drops: the client's own transport sends a GET again once when the connection drops.
    server().then(new Answer.Drop(), new Answer.Drop());

    assertEquals("item-1", item("1"));
    Event failed = events.stream().filter(event -> event.kind().equals("retry.attempt_failed")).findFirst().orElseThrow();
    String thrown = String.valueOf(failed.attributes().get("exception"));
    assertTrue(thrown.endsWith(ioFailureName()), "the framework's wrapper, retried by on = IOException.class: " + thrown);
  }

  @Test
  void theBreakerOpensAndTheFallbackAnswers() {
    server().always(new Answer.Status(503, null));

    assertEquals("unknown", item("1"));   // three attempts
    assertEquals("unknown", item("1"));   // two more open the breaker; the third is refused
    assertEquals(CircuitState.OPEN, registry.circuitBreaker(instanceName()).state());
    assertEquals("unknown", item("1"));
    assertEquals(5, server().requests().size(), "nothing sent while open");
  }

  @Test
  void a429WithRetryAfterOneWaitsASecondAndSlowsTheLimiter() {
    server().then(new Answer.Status(429, "1"));

    assertEquals("item-1", item("1"));
    assertWaitedAboutASecond();
    assertTrue(registry.rateLimiter(instanceName()).currentRate() < 20, "the adaptive limiter backed off");
  }

  @Test
  void a503WithRetryAfterOneWaitsASecond() {
    server().then(new Answer.Status(503, "1"));

    assertEquals("item-1", item("1"));
    assertWaitedAboutASecond();
  }

  @Test
  void aTimeoutReleasesTheCallerFromAHangingRead() {
    server().always(new Answer.Hang());

    long started = System.nanoTime();
    assertEquals("unknown", item("1"), "timed out; TimeoutExceededException is not retried, the fallback answers");
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    System.out.println("[" + getClass().getSimpleName() + ", JDK " + Runtime.version().feature() + "] timeout of 1000 ms,"
        + " read timeout 3000 ms: the caller had its fallback after " + millis + " ms");
    assertTrue(millis >= 990 && millis < 2_500, "released at Brace's deadline, not the read timeout: " + millis + " ms");
  }

  private void assertWaitedAboutASecond() {
    assertEquals(2, server().requests().size());
    long waited = server().millisBetween(0, 1);
    assertTrue(waited >= 1_000 && waited < 1_600, "Retry-After: 1 is about a second: " + waited + " ms; " + events);
  }

  private static ItemsServer startServer() {
    try {
      return ItemsServer.start(RESERVED_PORT);
    } catch (IOException unbound) {
      throw new UncheckedIOException(unbound);
    }
  }
}
