package dev.brace.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.brace.runtime.Registry;
import dev.brace.spring.BraceRegistryCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The example application under a soak: started on a random port, its {@code Recommendations}
 * wrapper (the application's own interface and settings) in front of a real HTTP downstream that
 * misbehaves at random — it answers, answers slowly, hangs past the call's timeout, fails with 500
 * or drops the connection — while several client threads call the application's HTTP API for a
 * while: about 12 s in quick mode (part of {@code mvn verify}), {@code -Dreliability.soak.minutes}
 * (default 5) with {@code -Dreliability.long=true}.
 *
 * <p>At the end: every request got exactly one response, a 200 with the user's recommendations
 * or the documented degraded answer (the editors' picks), never an error; every Brace bulkhead
 * holds no permit; no {@code brace-} thread started during the soak is left; and the Micrometer
 * meters Brace publishes agree with what was done — {@code brace.calls} counts each request's call
 * through the wrapper, with the outcome the client saw, and {@code brace.attempts} each call the
 * wrapper made to the downstream.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    // A timeout the downstream's hangs overrun, and a breaker that closes again within the soak.
    "brace.timeout.Recommendations.forUser.duration=250ms",
    "brace.circuitbreaker.recs-api.failure-threshold=4",
    "brace.circuitbreaker.recs-api.reset-timeout=150ms",
    // The fleet's quota (in Redis) out of the way: this soak is about the flaky downstream.
    "brace.ratelimit.recs-quota.permits=1000000"})
class RecsSoakTest {
  private static final String CALL = "Recommendations.forUser";
  private static final Duration GRACE = Duration.ofSeconds(10);
  private static final int CLIENTS = 6;

  /**
   * The downstream and its client, started on first use: never while the tests are processed ahead
   * of time, which loads this class and whose JVM the JDK server's dispatcher thread, not a daemon,
   * would keep from ending.
   */
  private static final class Downstream {
    static final FlakyDownstream SERVER = FlakyDownstream.start();
    static final HttpRecommendations CLIENT = new HttpRecommendations(SERVER);
  }
  /** The registry's deadlines and waits run here, so every thread Brace itself starts is visible. */
  private static final ScheduledExecutorService SCHEDULER = Executors.newScheduledThreadPool(2, runnable -> {
    Thread thread = new Thread(runnable, "soak-scheduler");
    thread.setDaemon(true);
    return thread;
  });

  /** The application's recommendations client, pointed at the flaky downstream over HTTP. */
  @TestConfiguration(proxyBeanMethods = false)
  static class AgainstTheFlakyDownstream {
    @Bean
    @Primary
    Recommendations flakyRecommendations(Registry registry) {
      return ResilientRecommendations.wrap(Downstream.CLIENT, registry);
    }

    @Bean
    BraceRegistryCustomizer soakScheduler() {
      return builder -> builder.scheduler(SCHEDULER);
    }
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

  @AfterAll
  static void stopDownstream() throws InterruptedException {
    Downstream.SERVER.close();
    Downstream.CLIENT.close();
    SCHEDULER.shutdownNow();
  }

  @LocalServerPort
  int port;

  @Autowired
  Registry registry;

  @Autowired
  MeterRegistry meters;

  /** What the clients saw. */
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong recommended = new AtomicLong();
  private final AtomicLong degraded = new AtomicLong();
  private final AtomicLong stock = new AtomicLong();
  private final Map<String, AtomicLong> wrong = new ConcurrentHashMap<>();

  @Test
  @Timeout(value = 3, unit = TimeUnit.HOURS) // bounded by the soak's own length and grace; lifts the 2-minute default
  void everyRequestGetsOneAnswerAndTheMetersAgree() throws Exception {
    boolean longMode = Boolean.getBoolean("reliability.long");
    Duration length = longMode ? Duration.ofMinutes(Long.getLong("reliability.soak.minutes", 5)) : Duration.ofSeconds(12);
    Set<Thread> braceThreadsBefore = braceThreads();
    double callsBefore = count("brace.calls", CALL);
    double attemptsBefore = count("brace.attempts", CALL);
    double stockBefore = count("brace.calls", "Inventory.inStock");
    long invocationsBefore = Downstream.CLIENT.invocations.get();
    long started = System.nanoTime();

    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long end = started + length.toNanos();
    List<Thread> clients = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      Thread client = new Thread(() -> drive(http, end), "soak-client-" + i);
      client.start();
      clients.add(client);
    }
    for (Thread client : clients) {
      client.join(length.plus(GRACE).plusSeconds(30).toMillis());
      assertThat(client.isAlive()).as("%s still running", client.getName()).isFalse();
    }
    long graceEnd = System.nanoTime() + GRACE.toNanos();
    while ((Downstream.CLIENT.running.get() > 0 || !newBraceThreads(braceThreadsBefore).isEmpty()) && System.nanoTime() < graceEnd) {
      Thread.sleep(20);
    }

    long calls = recommended.get() + degraded.get();
    double braceCalls = count("brace.calls", CALL) - callsBefore;
    double braceAttempts = count("brace.attempts", CALL) - attemptsBefore;
    long invocations = Downstream.CLIENT.invocations.get() - invocationsBefore;
    Map<String, Double> outcomes = outcomes();
    Map<String, Integer> bulkheads = new TreeMap<>();
    registry.names().getOrDefault("bulkhead", Set.of()).forEach(name -> bulkheads.put(name, registry.bulkhead(name).inFlight()));
    System.out.printf("[reliability] soak-spring mode=%s requests=%d recommended=%d degraded=%d stock=%d wrong=%s"
            + " brace.calls=%.0f outcomes=%s brace.attempts=%.0f invocations=%d downstream=%s bulkheads_in_flight=%s"
            + " invariants=one-answer-per-request,no-500,bulkheads-empty,no-brace-threads,brace.calls==requests,"
            + "outcomes==answers,brace.attempts==invocations seconds=%.1f%n",
        longMode ? "long" : "quick", sent.get(), recommended.get(), degraded.get(), stock.get(), wrong, braceCalls, outcomes,
        braceAttempts, invocations, Downstream.SERVER.served(), bulkheads, (System.nanoTime() - started) / 1e9);

    assertThat(wrong).as("requests without exactly one good answer, by what they got").isEmpty();
    assertThat(sent.get()).isEqualTo(calls + stock.get());
    assertThat(recommended.get()).as("some calls must get through").isPositive();
    assertThat(degraded.get()).as("the faults must reach the callers' fallback").isPositive();
    assertThat(bulkheads).isNotEmpty().allSatisfy((name, inFlight) -> assertThat(inFlight).as(name).isZero());
    assertThat(newBraceThreads(braceThreadsBefore)).as("threads Brace started that still run").isEmpty();
    assertThat(braceCalls).as("brace.calls of %s = requests for recommendations", CALL).isEqualTo((double) calls);
    assertThat(count("brace.calls", "Inventory.inStock") - stockBefore).as("brace.calls of Inventory.inStock").isEqualTo((double) stock.get());
    assertThat(outcomes.getOrDefault("success", 0.0)).as("successful calls = recommendations answered").isEqualTo((double) recommended.get());
    assertThat(outcomes.getOrDefault("fallback", 0.0)).as("fallback calls = degraded answers").isEqualTo((double) degraded.get());
    assertThat(braceAttempts).as("brace.attempts = calls the wrapper made to the downstream").isEqualTo((double) invocations);
  }

  /** One client: recommendations for one of 50 users, now and then an item's stock, until {@code end}. */
  private void drive(HttpClient http, long end) {
    ThreadLocalRandom dice = ThreadLocalRandom.current();
    while (System.nanoTime() < end) {
      boolean recs = dice.nextInt(5) > 0;
      String user = "u" + dice.nextInt(50);
      String path = recs ? "/recs/" + user : "/stock/lamp";
      sent.incrementAndGet();
      try {
        HttpResponse<String> response = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        if (response.statusCode() != 200) {
          wrong("status " + response.statusCode());
        } else if (!recs) {
          if (body.contains("\"inStock\":4")) {
            stock.incrementAndGet();
          } else {
            wrong("stock " + body);
          }
        } else if (body.equals("[\"book-for-" + user + "\",\"film-for-" + user + "\"]")) {
          recommended.incrementAndGet();
        } else if (body.equals("[\"editors-pick-1\",\"editors-pick-2\"]")) {
          degraded.incrementAndGet();
        } else {
          wrong("body " + body);
        }
        Thread.sleep(1);
      } catch (IOException failed) {
        wrong(failed.getClass().getSimpleName());
      } catch (InterruptedException stop) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void wrong(String what) {
    wrong.computeIfAbsent(what, key -> new AtomicLong()).incrementAndGet();
  }

  /** @return the count of a timer over every sample of one call, whatever its other tags */
  private double count(String meter, String call) {
    return meters.find(meter).tag("call", call).timers().stream().mapToDouble(Timer::count).sum();
  }

  /** @return the call's samples of {@code brace.calls} by outcome */
  private Map<String, Double> outcomes() {
    return meters.find("brace.calls").tag("call", CALL).timers().stream()
        .collect(Collectors.groupingBy(timer -> timer.getId().getTag("outcome"), TreeMap::new, Collectors.summingDouble(Timer::count)));
  }

  private static Set<Thread> braceThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("brace-") && thread.isAlive())
        .collect(Collectors.toSet());
  }

  private static List<String> newBraceThreads(Set<Thread> before) {
    return braceThreads().stream().filter(thread -> !before.contains(thread)).map(Thread::getName).collect(Collectors.toList());
  }

  /**
   * The recommendations service over HTTP, as the application would call it: 200 with the list,
   * a 5xx or a broken connection as the {@code IllegalStateException} {@link Recommendations}
   * retries. It answers interrupts (the timeout's), as {@code HttpClient.send} does.
   */
  static final class HttpRecommendations implements Recommendations {
    final AtomicLong invocations = new AtomicLong();
    final AtomicLong running = new AtomicLong();
    private final FlakyDownstream downstream;
    private final ExecutorService httpThreads = Executors.newFixedThreadPool(4, runnable -> {
      Thread thread = new Thread(runnable, "soak-downstream-client");
      thread.setDaemon(true);
      return thread;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2)).executor(httpThreads).build();

    HttpRecommendations(FlakyDownstream downstream) {
      this.downstream = downstream;
    }

    @Override
    public List<String> forUser(String userId) {
      invocations.incrementAndGet();
      running.incrementAndGet();
      try {
        HttpResponse<String> response = http.send(
            HttpRequest.newBuilder(downstream.uri("/recs/" + userId)).timeout(Duration.ofSeconds(3)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          throw new IllegalStateException("recommendations service answered " + response.statusCode());
        }
        return List.of(response.body().split(","));
      } catch (IOException broken) {
        throw new IllegalStateException("recommendations service unreachable: " + broken, broken);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the recommendations service", interrupted);
      } finally {
        running.decrementAndGet();
      }
    }

    void close() {
      httpThreads.shutdownNow();
    }
  }

  /**
   * A local HTTP server (127.0.0.1, a free port) that answers {@code /recs/{user}} at random: at
   * once (50 %), slowly (20–170 ms, 12 %), after a hang past the call's timeout (300–700 ms, 10 %),
   * with 500 (18 %), or not at all, closing the connection (10 %). Every wait is bounded.
   */
  static final class FlakyDownstream {
    private final HttpServer server;
    private final ExecutorService handlers;
    private final Map<String, AtomicLong> served = new ConcurrentHashMap<>();

    private FlakyDownstream(HttpServer server, ExecutorService handlers) {
      this.server = server;
      this.handlers = handlers;
    }

    static FlakyDownstream start() {
      try {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        ExecutorService handlers = Executors.newFixedThreadPool(32, runnable -> {
          Thread thread = new Thread(runnable, "flaky-downstream");
          thread.setDaemon(true);
          return thread;
        });
        FlakyDownstream downstream = new FlakyDownstream(server, handlers);
        server.setExecutor(handlers);
        server.createContext("/recs/", downstream::handle);
        server.start();
        return downstream;
      } catch (IOException cannotListen) {
        throw new IllegalStateException("cannot start the flaky downstream", cannotListen);
      }
    }

    URI uri(String path) {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private void handle(HttpExchange exchange) throws IOException {
      ThreadLocalRandom dice = ThreadLocalRandom.current();
      int roll = dice.nextInt(100);
      String user = exchange.getRequestURI().getPath().substring("/recs/".length());
      String answer = "book-for-" + user + ",film-for-" + user;
      try (exchange) {
        if (roll < 50) {
          count("ok");
          respond(exchange, 200, answer);
        } else if (roll < 62) {
          count("slow");
          pause(20 + dice.nextInt(150));
          respond(exchange, 200, answer);
        } else if (roll < 72) {
          count("hang");
          pause(300 + dice.nextInt(400));
          respond(exchange, 200, answer);
        } else if (roll < 90) {
          count("fail");
          respond(exchange, 500, "boom");
        } else {
          // Closed with no status line: the client reads end of stream.
          count("drop");
        }
      }
    }

    private void count(String behaviour) {
      served.computeIfAbsent(behaviour, key -> new AtomicLong()).incrementAndGet();
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }

    private static void pause(int millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
      }
    }

    /** @return requests met by each behaviour, e.g. {@code {drop=3, fail=9, ok=25, …}} */
    String served() {
      return new TreeMap<>(served).toString().replace(" ", "");
    }

    void close() throws InterruptedException {
      server.stop(0);
      handlers.shutdownNow();
      handlers.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
