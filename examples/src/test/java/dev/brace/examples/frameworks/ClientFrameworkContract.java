package dev.brace.examples.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Timeout;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.examples.frameworks.ItemsServer.Answer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the guide says Brace does for a client made by an HTTP client framework, against a real
 * local server, through the generated wrapper: each framework's test names its client and what it
 * throws, and inherits these tests. Real time, since the server is real; each test takes a second
 * or two at most, its bounds generous but each able to fail.
 *
 * <p>The timeout tests measure what {@code INTERRUPT} and {@code ABANDON} do to the framework's
 * blocking read against a server that never answers: when the caller gets its {@code
 * TimeoutExceededException}, and when (and how) the framework's call itself ends. They append what
 * they saw to {@code target/framework-timeouts.txt}; the guide quotes those numbers.
 */
public abstract class ClientFrameworkContract {
  /** Brace's per-attempt timeout in the timeout tests. */
  protected static final Duration BRACE_TIMEOUT = Duration.ofMillis(200);
  /** The framework's own read timeout in the timeout tests: what ends a read nothing else ends. */
  protected static final Duration READ_TIMEOUT = Duration.ofMillis(1500);

  /** The client through its generated wrapper, whatever its method throws. */
  @FunctionalInterface
  protected interface Items {
    String item(String id) throws Exception;
  }

  protected ItemsServer server;
  protected final Attempts attempts = new Attempts();

  /** @return the framework's name, as the measurements report it */
  protected abstract String framework();

  /** @return the generated call's name, {@code Interface.method} */
  protected abstract String callName();

  /** @return the name of the breaker and of the limiter on the interface */
  protected abstract String instanceName();

  /**
   * @param baseUri the server
   * @param readTimeout the framework client's own read timeout
   * @param registry the registry to wrap in
   * @param attempts to put between the wrapper and the framework's client
   * @return the framework's client, made as the example makes it, wrapped in its generated wrapper
   */
  protected abstract Items wrap(URI baseUri, Duration readTimeout, Registry registry, Attempts attempts);

  /** @return what the framework throws for an I/O failure (the connection dropped) */
  protected abstract Class<? extends Throwable> ioFailureType();

  /** @return what it throws for a 503 without {@code Retry-After} */
  protected abstract Class<? extends Throwable> unavailableType();

  /** @return what it throws for a 429 with {@code Retry-After} */
  protected abstract Class<? extends Throwable> throttledType();

  /**
   * @param onVirtualThread whether the read runs on a virtual thread (an {@code ABANDON} worker on
   *     JDK 21 and later), where an interrupt closes a blocking socket
   * @return whether interrupting the thread blocked in the framework's read ends the read (measured)
   */
  protected abstract boolean interruptEndsTheRead(boolean onVirtualThread);

  @BeforeEach
  void startServer() throws IOException {
    server = ItemsServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  /**
   * @param settings programmatic settings over the annotations
   * @param fallback whether the method's fallback answers
   * @return a registry of the test's own: no variable or property of this machine applies
   */
  protected Registry registry(Consumer<Registry.Builder> settings, boolean fallback) {
    Map<String, String> properties = new HashMap<>();
    if (!fallback) {
      properties.put("brace.fallback." + callName() + ".enabled", "false");
    }
    Registry.Builder builder = Registry.builder().environment(Map.of()).systemProperties(properties);
    settings.accept(builder);
    return builder.build();
  }

  private Items client(Consumer<Registry.Builder> settings, boolean fallback) {
    return wrap(server.uri(), Duration.ofSeconds(2), registry(settings, fallback), attempts);
  }

  @Test
  void a503IsRetriedAndTheSecondAttemptAnswers() throws Exception {
    server.then(new Answer.Status(503, null));
    Items items = client(settings -> {}, false);

    assertEquals("item-1", items.item("1"));
    assertEquals(2, server.requests().size());
    assertInstanceOf(unavailableType(), attempts.ended().get(0).failure());
  }

  @Test
  void anIoFailureIsCaughtByOnIoException() throws Exception {
    server.always(new Answer.Drop());
    attempts.beforeEach(attempt -> {
      if (attempt == 2) {
        server.heal();
      }
    });
    Items items = client(settings -> {}, false);

    assertEquals("item-1", items.item("1"));
    Throwable first = attempts.ended().get(0).failure();
    assertInstanceOf(ioFailureType(), first);
    assertTrue(causedByIoException(first), "an IOException, itself or as a cause: " + first);
    measured("a dropped connection: the first attempt failed with " + describe(first) + "; the server saw "
        + (server.requests().size() - 1) + " request(s) for it (the client's own resends included)");
  }

  @Test
  void theBreakerOpensAfterFiveFailuresAndThenSendsNothing() throws Exception {
    server.always(new Answer.Status(503, null));
    Registry registry = registry(settings -> settings.retry(callName(), retry -> retry.maxAttempts(1)), false);
    Items items = wrap(server.uri(), Duration.ofSeconds(2), registry, attempts);

    for (int call = 0; call < 5; call++) {
      assertThrows(unavailableType(), () -> items.item("1"));
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker(instanceName()).state());
    assertThrows(CircuitOpenException.class, () -> items.item("1"));
    assertEquals(5, server.requests().size(), "the open breaker sent nothing");
  }

  @Test
  void theFallbackAnswersWhenEveryAttemptFails() throws Exception {
    server.always(new Answer.Status(503, null));
    Items items = client(settings -> {}, true);

    assertEquals("unknown", items.item("1"));
    assertEquals(3, server.requests().size(), "three attempts, then the fallback");
  }

  @Test
  void a429WithRetryAfterOneMakesTheNextAttemptWaitASecond() throws Exception {
    server.then(new Answer.Status(429, "1"));
    Items items = client(settings -> {}, false);

    assertEquals("item-1", items.item("1"));
    assertWaitedAboutASecond();
  }

  @Test
  void a503WithRetryAfterOneMakesTheNextAttemptWaitASecond() throws Exception {
    server.then(new Answer.Status(503, "1"));
    Items items = client(settings -> {}, false);

    assertEquals("item-1", items.item("1"));
    assertWaitedAboutASecond();
  }

  @Test
  void maxRetryAfterCapsAHeaderThatAsksForLonger() throws Exception {
    server.then(new Answer.Status(503, "3600"));
    Items items = client(settings -> settings.retry(callName(), retry -> retry.maxRetryAfter("300ms")), false);

    assertEquals("item-1", items.item("1"));
    long waited = server.millisBetween(0, 1);
    assertTrue(waited >= 290 && waited < 900, "capped at 300 ms, not an hour: " + waited + " ms");
  }

  @Test
  void anAdaptiveLimiterBacksOffUntilTheRetryAfter() throws Exception {
    server.then(new Answer.Status(429, "1"));
    Registry registry = registry(settings -> settings.retry(callName(), retry -> retry.maxAttempts(1)), false);
    Items items = wrap(server.uri(), Duration.ofSeconds(2), registry, attempts);

    assertThrows(throttledType(), () -> items.item("1"));
    assertEquals(10.0, registry.rateLimiter(instanceName()).currentRate(), "halved from 20 per second");
    RateLimitedException refused = assertThrows(RateLimitedException.class, () -> items.item("2"));
    Duration wait = refused.retryAfter().orElseThrow();
    assertTrue(wait.compareTo(Duration.ofMillis(500)) > 0 && wait.compareTo(Duration.ofSeconds(1)) <= 0,
        "admits nothing until the Retry-After: " + wait);
    assertEquals(1, server.requests().size(), "the second call was not sent");
  }

  @Test
  void anInterruptTimeoutOnAHangingRead() throws Exception {
    Observed observed = timedOut(Timeout.Mode.INTERRUPT);

    assertSame(Thread.currentThread(), observed.attempt.thread(), "INTERRUPT runs the attempt on the caller's thread");
    if (interruptEndsTheRead(false)) {
      assertTrue(observed.callerMillis < 1000, "the interrupt ended the read: " + observed.callerMillis + " ms");
    } else {
      assertTrue(observed.callerMillis >= READ_TIMEOUT.toMillis() - 100,
          "the read ignored the interrupt; the caller waited for the client's read timeout: " + observed.callerMillis + " ms");
    }
  }

  @Test
  void anAbandonTimeoutOnAHangingRead() throws Exception {
    Observed observed = timedOut(Timeout.Mode.ABANDON);

    assertNotSame(Thread.currentThread(), observed.attempt.thread(), "ABANDON runs the attempt on a worker");
    assertTrue(observed.callerMillis < 1000, "the caller is released at the deadline: " + observed.callerMillis + " ms");
    // Brace's ABANDON workers are virtual threads where the JDK has them (21 and later).
    if (interruptEndsTheRead(Runtime.version().feature() >= 21)) {
      assertTrue(observed.attempt.blockedMillis() < 1000,
          "the worker's interrupt ended the read: " + observed.attempt.blockedMillis() + " ms");
    } else {
      assertTrue(observed.attempt.blockedMillis() >= READ_TIMEOUT.toMillis() - 100,
          "the worker stayed blocked until the read timeout: " + observed.attempt.blockedMillis() + " ms");
    }
  }

  /** What a timed-out call looked like from the caller and from inside the framework. */
  private record Observed(long callerMillis, Attempts.Attempt attempt) {}

  private Observed timedOut(Timeout.Mode mode) throws Exception {
    server.always(new Answer.Hang());
    Registry registry = registry(settings -> settings
        .retry(callName(), retry -> retry.maxAttempts(1))
        .timeout(callName(), timeout -> timeout.duration(BRACE_TIMEOUT).mode(mode)), false);
    Items items = wrap(server.uri(), READ_TIMEOUT, registry, attempts);

    long started = System.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> items.item("1"));
    long callerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    boolean callerInterrupted = Thread.interrupted();
    List<Attempts.Attempt> ended = attempts.awaitEnded(1, READ_TIMEOUT.toMillis() + 2_000);
    assertEquals(1, ended.size(), "the framework's call ended, one way or another");
    Attempts.Attempt attempt = ended.get(0);
    assertFalse(callerInterrupted, "Brace clears the interrupt it caused");
    measured(mode + " timeout of " + BRACE_TIMEOUT.toMillis() + " ms, client read timeout "
        + READ_TIMEOUT.toMillis() + " ms: the caller got TimeoutExceededException after " + callerMillis
        + " ms; the framework's call ran on " + (attempt.thread() == Thread.currentThread() ? "the caller's thread" : "a worker")
        + " and ended after " + attempt.blockedMillis() + " ms with " + describe(attempt.failure()));
    return new Observed(callerMillis, attempt);
  }

  private void assertWaitedAboutASecond() {
    assertEquals(2, server.requests().size());
    long waited = server.millisBetween(0, 1);
    assertTrue(waited >= 1_000 && waited < 1_600, "Retry-After: 1 is about a second: " + waited + " ms");
    measured("Retry-After: 1, then the next attempt arrived " + waited + " ms later");
  }

  private static boolean causedByIoException(Throwable failure) {
    for (Throwable current = failure; current != null; current = current.getCause()) {
      if (current instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  /** @return the failure and its causes, by class: {@code A <- B <- C} */
  protected static String describe(Throwable failure) {
    if (failure == null) {
      return "its answer";
    }
    StringBuilder chain = new StringBuilder(failure.getClass().getName());
    Throwable cause = failure.getCause();
    for (int depth = 0; cause != null && depth < 16; depth++) {
      chain.append(" <- ").append(cause.getClass().getName());
      cause = cause.getCause() == cause ? null : cause.getCause();
    }
    return chain.toString();
  }

  private void measured(String line) {
    String text = "[" + framework() + ", JDK " + Runtime.version().feature() + "] " + line;
    System.out.println(text);
    try {
      Files.writeString(Path.of("target", "framework-timeouts.txt"), text + System.lineSeparator(), StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException unwritable) {
      throw new UncheckedIOException(unwritable);
    }
  }
}
