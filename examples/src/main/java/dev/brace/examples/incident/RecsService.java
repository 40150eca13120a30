package dev.brace.examples.incident;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The recommendations service: {@code GET /recs?user=ID} on the JDK's HTTP server, bound to a free
 * loopback port, misbehaving as its {@link IncidentScript} says in the phase its {@link Pacing}
 * is in. It keeps an access log, which is how the demo knows what the service received.
 */
public final class RecsService implements AutoCloseable {

  /** One line of the access log. {@code repeat}: this visit had asked before, i.e. a retry. */
  public record Request(long atMillis, Phase phase, boolean repeat, int status) {}

  private final IncidentScript script;
  private final Pacing pacing;
  private final Map<Phase, Random> failures = new EnumMap<>(Phase.class);
  private final HttpServer server;
  private final ExecutorService workers;
  private final ConcurrentLinkedQueue<Request> accessLog = new ConcurrentLinkedQueue<>();
  private final Set<String> usersSeen = ConcurrentHashMap.newKeySet();
  /** False for a game day: the incident is made by fault injection in the callers, the service stays healthy. */
  private final boolean misbehaves;

  private RecsService(IncidentScript script, Pacing pacing, boolean misbehaves) throws IOException {
    this.script = Objects.requireNonNull(script, "script");
    this.pacing = Objects.requireNonNull(pacing, "pacing");
    this.misbehaves = misbehaves;
    for (Phase phase : Phase.values()) {
      failures.put(phase, pacing.failures(phase));
    }
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "recs-service-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    server.createContext("/recs", this::handle);
    server.setExecutor(workers);
  }

  /**
   * Starts a service that stays healthy: its script's incident never begins.
   *
   * @param script how it would misbehave
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static RecsService start(IncidentScript script) throws IOException {
    return start(script, Pacing.realTime(script));
  }

  /**
   * Starts the service on a free port of 127.0.0.1. It is healthy, and logs nothing, until the
   * pacing begins the incident.
   *
   * @param script how it misbehaves in each phase
   * @param pacing which phase it is in, and its luck
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static RecsService start(IncidentScript script, Pacing pacing) throws IOException {
    return start(script, pacing, true);
  }

  /**
   * @param script how it misbehaves in each phase, when it does
   * @param pacing which phase it is in, and its luck
   * @param misbehaves false for a service that stays healthy through every phase (it still logs
   *     each request with its phase)
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static RecsService start(IncidentScript script, Pacing pacing, boolean misbehaves) throws IOException {
    RecsService service = new RecsService(script, pacing, misbehaves);
    service.server.start();
    return service;
  }

  /** @return where to reach it, e.g. {@code http://127.0.0.1:41234} */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** @return every request received so far, in arrival order */
  public List<Request> accessLog() {
    return List.copyOf(accessLog);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Optional<Pacing.Moment> now = pacing.now();
      String user = user(exchange.getRequestURI());
      if (now.isEmpty()) {
        answer(exchange, user);  // warming up: healthy, and not part of the incident's log
        return;
      }
      long atMillis = now.get().elapsedMillis();
      Phase phase = now.get().phase();
      boolean repeat = !usersSeen.add(user);
      switch (misbehaves ? phase : Phase.HEALTHY) {
        case BROWNOUT:
          if (failures.get(phase).nextDouble() < script.brownoutShare()) {
            accessLog.add(new Request(atMillis, phase, repeat, 503));
            exchange.getResponseHeaders().set("Retry-After", "1");
            exchange.sendResponseHeaders(503, -1);
            return;
          }
          break;
        case LATENCY_SPIKE:
          accessLog.add(new Request(atMillis, phase, repeat, 200));
          try {
            pacing.answerLate(script.spikeLatency());
          } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
            return;
          }
          answer(exchange, user);
          return;
        case HARD_DOWN:
          accessLog.add(new Request(atMillis, phase, repeat, 500));
          exchange.sendResponseHeaders(500, -1);
          return;
        default:
          break;
      }
      accessLog.add(new Request(atMillis, phase, repeat, 200));
      pause(2 + ThreadLocalRandom.current().nextInt(6));
      answer(exchange, user);
    } catch (IOException clientGone) {
      // The client stopped waiting (its timeout); nothing to answer.
    }
  }

  private static void answer(HttpExchange exchange, String user) throws IOException {
    int seed = Math.floorMod(user.hashCode(), 97);
    byte[] body = ("item-" + seed + ",item-" + (seed + 3) + ",item-" + (seed + 11)).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static String user(URI uri) {
    String query = uri.getRawQuery();
    return query == null ? "" : query;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the server at once and its worker threads with it. */
  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
