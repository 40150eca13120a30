package dev.brace.reliability;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local HTTP server (127.0.0.1, a free port) that misbehaves at random: it answers at once,
 * answers slowly, hangs past any client timeout (then answers), fails with 500, or drops the
 * connection without a response. Every wait is bounded, so it stops by itself.
 */
final class FaultyServer implements AutoCloseable {
  enum Behaviour { OK, SLOW, HANG, FAIL, DROP }

  private final HttpServer server;
  private final ExecutorService handlers;
  private final AtomicLong[] served = new AtomicLong[Behaviour.values().length];

  FaultyServer() throws IOException {
    for (int i = 0; i < served.length; i++) {
      served[i] = new AtomicLong();
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    handlers = Executors.newFixedThreadPool(48, runnable -> {
      Thread thread = new Thread(runnable, "faulty-server");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
    server.start();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + path);
  }

  private void handle(HttpExchange exchange) throws IOException {
    ThreadLocalRandom dice = ThreadLocalRandom.current();
    int roll = dice.nextInt(100);
    Behaviour behaviour =
        roll < 50 ? Behaviour.OK : roll < 62 ? Behaviour.SLOW : roll < 72 ? Behaviour.HANG : roll < 90 ? Behaviour.FAIL : Behaviour.DROP;
    served[behaviour.ordinal()].incrementAndGet();
    try (exchange) {
      switch (behaviour) {
        case SLOW:
          pause(20 + dice.nextInt(150));
          respond(exchange, 200, "slow");
          break;
        case HANG:
          pause(300 + dice.nextInt(400));
          respond(exchange, 200, "late");
          break;
        case FAIL:
          respond(exchange, 500, "boom");
          break;
        case DROP:
          // Closed with no status line: the client reads end of stream.
          break;
        default:
          respond(exchange, 200, "ok");
      }
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Connection", "close");
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

  /** @return how many requests met each behaviour, e.g. {@code OK=10 SLOW=2 ...} */
  String served() {
    StringBuilder line = new StringBuilder();
    for (Behaviour behaviour : Behaviour.values()) {
      line.append(line.length() == 0 ? "" : ",").append(behaviour.name().toLowerCase()).append(':')
          .append(served[behaviour.ordinal()].get());
    }
    return line.toString();
  }

  @Override
  public void close() throws InterruptedException {
    server.stop(0);
    handlers.shutdownNow();
    handlers.awaitTermination(5, TimeUnit.SECONDS);
  }
}
