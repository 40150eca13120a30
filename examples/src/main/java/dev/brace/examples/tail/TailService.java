package dev.brace.examples.tail;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The price service: {@code GET /price?sku=S&way=W} on the JDK's HTTP server, bound to a free
 * loopback port. Each answer takes {@link Tail#fast} (± 20%), except a share {@link Tail#slowShare}
 * drawn at random per request, which takes {@link Tail#slow}: a heavy latency tail that has nothing
 * to do with the request, as a garbage-collection pause, a cold cache or a busy neighbour gives one.
 * It counts the requests it receives per {@code way}, which is how the demo knows what each way of
 * calling cost it.
 */
public final class TailService implements AutoCloseable {

  /**
   * How the service answers.
   *
   * @param fast a normal answer's time
   * @param slow a slow answer's time
   * @param slowShare the share of slow answers, from 0 to 1
   */
  public record Tail(Duration fast, Duration slow, double slowShare) {
    /** @return the demo's tail: 10 ms, one answer in twenty 20 times slower (200 ms) */
    public static Tail standard() {
      return new Tail(Duration.ofMillis(10), Duration.ofMillis(200), 0.05);
    }

    /** @return the time one answer takes, in microseconds */
    long drawMicros(ThreadLocalRandom random) {
      Duration base = random.nextDouble() < slowShare ? slow : fast;
      long micros = base.toNanos() / 1000;
      return micros - micros / 5 + random.nextLong(2 * (micros / 5) + 1);
    }
  }

  private final Tail tail;
  private final HttpServer server;
  private final ExecutorService workers;
  private final Map<String, AtomicLong> received = new ConcurrentHashMap<>();

  private TailService(Tail tail) throws IOException {
    this.tail = tail;
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "price-service-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 500);
    server.createContext("/price", this::handle);
    server.setExecutor(workers);
  }

  /**
   * Starts the service on a free port of 127.0.0.1.
   *
   * @param tail how it answers
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static TailService start(Tail tail) throws IOException {
    // The JDK's server writes an answer's headers and body apart; with Nagle's algorithm on, the
    // client's delayed acknowledgement then holds every answer back by about 40 ms, a latency of
    // the demo's own making. The server reads this once, when the JVM's first server starts.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    TailService service = new TailService(tail);
    service.server.start();
    return service;
  }

  /** @return where to reach it, e.g. {@code http://127.0.0.1:41234} */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** @return how it answers */
  public Tail tail() {
    return tail;
  }

  /**
   * @param way the {@code way} the requests named
   * @return how many requests of that way it received
   */
  public long received(String way) {
    AtomicLong count = received.get(way);
    return count == null ? 0 : count.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> query = query(exchange.getRequestURI());
      received.computeIfAbsent(query.getOrDefault("way", ""), way -> new AtomicLong()).incrementAndGet();
      try {
        long micros = tail.drawMicros(ThreadLocalRandom.current());
        Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
      } catch (InterruptedException stopping) {
        Thread.currentThread().interrupt();
        return;
      }
      String sku = query.getOrDefault("sku", "");
      byte[] body = (sku + ":" + (100 + Math.floorMod(sku.hashCode(), 900)) + ".00").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } catch (IOException clientGone) {
      // The client stopped waiting (a timeout, or a hedge that won elsewhere); nothing to answer.
    }
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> values = new ConcurrentHashMap<>();
    String raw = uri.getRawQuery();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int equals = pair.indexOf('=');
        if (equals > 0) {
          values.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
      }
    }
    return values;
  }

  /** Stops the server at once and its worker threads with it. */
  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
