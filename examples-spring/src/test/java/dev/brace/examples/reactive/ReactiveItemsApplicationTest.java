package dev.brace.examples.reactive;

import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.BROKEN;
import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.HANG;
import static dev.brace.examples.frameworks.webclient.NettyItemsServer.Answer.UNAVAILABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.frameworks.webclient.NettyItemsServer;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
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
 * The HTTP interface that {@code @ImportHttpServices} registers on the {@code WebClient} Spring
 * Boot configures, wrapped by the starter, against a real local server: the bean is the wrapper, a
 * 503 is retried, failures open the breaker and the fallback answers, a hanging answer is cut at
 * the timeout. Each test gets a fresh application context, so its breaker starts closed.
 */
@SpringBootTest(classes = ReactiveItemsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class ReactiveItemsApplicationTest {
  private static final Duration LONGEST = Duration.ofSeconds(10);
  private static final NettyItemsServer SERVER = new NettyItemsServer();

  @Autowired
  ReactiveItemsApi items;

  @Autowired
  Registry registry;

  private final List<Event> events = new CopyOnWriteArrayList<>();
  private AutoCloseable subscription;

  @DynamicPropertySource
  static void itemsService(DynamicPropertyRegistry properties) {
    properties.add("spring.http.serviceclient.reactive-items.base-url", () -> SERVER.uri().toString());
  }

  @BeforeEach
  void listen() {
    SERVER.reset();
    subscription = registry.subscribe(events::add);
  }

  @AfterEach
  void stopListening() throws Exception {
    subscription.close();
  }

  @AfterAll
  static void stopServer() {
    SERVER.close();
  }

  @Test
  void theBeanIsTheGeneratedWrapper() {
    assertEquals(Boolean.getBoolean("examples.ahead-of-time"), AotDetector.useGeneratedArtifacts(),
        "started from the code generated ahead of time in the build's second run, and only there");
    assertEquals("ResilientReactiveItemsApi", items.getClass().getSimpleName(), "wrapped by the starter");
  }

  @Test
  void a503IsRetriedAndTheSecondAttemptAnswers() {
    SERVER.then(UNAVAILABLE);

    assertEquals("item-1", items.item("1").block(LONGEST));
    assertEquals(2, SERVER.requests());
  }

  @Test
  void failuresOpenTheBreakerAndTheFallbackAnswers() {
    SERVER.always(BROKEN);

    for (int call = 0; call < 3; call++) {
      assertEquals("unknown", items.item("1").block(LONGEST));
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("items-reactive").state());
    assertEquals("unknown", items.item("1").block(LONGEST));
    assertEquals(3, SERVER.requests(), "nothing sent while open");
  }

  @Test
  void aHangingAnswerIsCutAtTheTimeout() throws Exception {
    SERVER.then(HANG);
    long started = System.nanoTime();

    assertEquals("unknown", items.item("1").block(LONGEST));

    long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
    assertTrue(millis >= 1_000 && millis < 5_000, "released at the 1 s deadline: " + millis + " ms");
    assertEquals(1, events.stream().filter(event -> event.kind().equals("timeout.exceeded")).count());
    assertTrue(SERVER.awaitGivenUp(10), "the request's connection is closed");
  }
}
