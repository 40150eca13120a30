package dev.brace.examples.incident;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The recommendations service: {@code GET /recs?user=ID} on the JDK's HTTP server, bound to a free
 * loopback port, misbehaving as its {@link IncidentScript} says. It keeps an access log, which is
 * how the demo knows what the service received.
 */
public final class RecsService implements AutoCloseable {

  /** One line of the access log. {@code repeat}: this visit had asked before, i.e. a retry. */
  public record Request(long atMillis, Phase phase, boolean repeat, int status) {}

  private final IncidentScript script;
  private final HttpServer server;
  private final ExecutorService workers;
  private final ConcurrentLinkedQueue<Request> accessLog = new ConcurrentLinkedQueue<>();
  private final Set<String> usersSeen = ConcurrentHashMap.newKeySet();
  private volatile long startNanos;

  private RecsService(IncidentScript script) throws IOException {
    this.script = script;
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
   * Starts the service on a free port of 127.0.0.1. The incident's clock starts with {@link
   * #beginIncident}; until then it is healthy.
   *
   * @param script what to do when
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static RecsService start(IncidentScript script) throws IOException {
    RecsService service = new RecsService(script);
    service.startNanos = Long.MAX_VALUE;
    service.server.start();
    return service;
  }

  /** @param startNanos the {@link System#nanoTime()} at which the script's clock reads zero */
  public void beginIncident(long startNanos) {
    this.startNanos = startNanos;
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
      long now = System.nanoTime();
      long started = startNanos;
      String user = user(exchange.getRequestURI());
      if (now < started) {
        answer(exchange, user);  // warming up: healthy, and not part of the incident's log
        return;
      }
      long atMillis = (now - started) / 1_000_000;
      Phase phase = script.phaseAt(Duration.ofMillis(atMillis));
      boolean repeat = !usersSeen.add(user);
      ThreadLocalRandom random = ThreadLocalRandom.current();
      switch (phase) {
        case BROWNOUT:
          if (random.nextDouble() < script.brownoutShare()) {
            accessLog.add(new Request(atMillis, phase, repeat, 503));
            exchange.getResponseHeaders().set("Retry-After", "1");
            exchange.sendResponseHeaders(503, -1);
            return;
          }
          break;
        case LATENCY_SPIKE:
          accessLog.add(new Request(atMillis, phase, repeat, 200));
          pause(script.spikeLatency().toMillis());
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
      pause(2 + random.nextInt(6));
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
