package dev.brace.examples.frameworks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The items service the framework examples call, on the JDK's HTTP server at a free loopback port:
 * {@code GET /items/{id}} answers {@code item-{id}} as text, unless told otherwise. Scripted answers
 * ({@link #then}) are used once each, in order, by the next requests; {@link #always} answers every
 * request until {@link #heal}. It records when each request arrived, so a test can measure the wait
 * between two attempts on the server's side.
 *
 * <p>A hanging answer holds its request until the server is reset or closes (at most 30 s), so a
 * client's own read timeout, or its reaction to an interrupt, is what ends it.
 */
public final class ItemsServer implements AutoCloseable {

  /** What the server does with one request. */
  public sealed interface Answer {
    /** 200 with {@code item-{id}}. */
    record Item() implements Answer {}

    /** A status with no body, and a {@code Retry-After} header when {@code retryAfter} is not null. */
    record Status(int status, String retryAfter) implements Answer {}

    /** The connection closed with no status line: the client reads end of stream. */
    record Drop() implements Answer {}

    /**
     * No answer until the server is reset or closes; then the item, late. (Closing the connection
     * instead would make some clients send the request again, into the next test.)
     */
    record Hang() implements Answer {}
  }

  /** One request as it arrived. */
  public record Request(long arrivedNanos, String path, Answer answer) {}

  private static final long LONGEST_HANG_SECONDS = 30;

  private final HttpServer server;
  private final ExecutorService handlers;
  private final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Answer> always = new AtomicReference<>(new Answer.Item());
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  /** Counted down to release the requests that hang now; replaced by {@link #reset}. */
  private final AtomicReference<CountDownLatch> hanging = new AtomicReference<>(new CountDownLatch(1));

  private ItemsServer(int port) throws IOException {
    handlers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "items-server");
      thread.setDaemon(true);
      return thread;
    });
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
  }

  /**
   * @return a running server
   * @throws IOException when no port can be bound
   */
  public static ItemsServer start() throws IOException {
    return start(0);
  }

  /**
   * @param port the loopback port to listen on, or 0 for a free one: fixed where the address must be
   *     known before the server runs (an application processed ahead of time keeps the URL it saw)
   * @return a running server
   * @throws IOException when the port cannot be bound
   */
  public static ItemsServer start(int port) throws IOException {
    ItemsServer items = new ItemsServer(port);
    items.server.start();
    return items;
  }

  /** @return where it listens, e.g. {@code http://127.0.0.1:41234} */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /**
   * @param answers what the next requests get, one each, in order
   * @return this
   */
  public ItemsServer then(Answer... answers) {
    for (Answer answer : answers) {
      script.add(Objects.requireNonNull(answer, "answer"));
    }
    return this;
  }

  /**
   * @param answer what every request gets once the script is used up, until {@link #heal}
   * @return this
   */
  public ItemsServer always(Answer answer) {
    always.set(Objects.requireNonNull(answer, "answer"));
    return this;
  }

  /** From now on, every request past the script gets its item. */
  public void heal() {
    always.set(new Answer.Item());
  }

  /** Forgets the script and the requests, releases hanging ones, and heals: as if just started. */
  public void reset() {
    script.clear();
    heal();
    hanging.getAndSet(new CountDownLatch(1)).countDown();
    requests.clear();
  }

  /** @return every request so far, in arrival order */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /**
   * @param from the index of a request
   * @param to the index of a later one
   * @return the milliseconds between their arrivals
   */
  public long millisBetween(int from, int to) {
    List<Request> seen = requests();
    return TimeUnit.NANOSECONDS.toMillis(seen.get(to).arrivedNanos() - seen.get(from).arrivedNanos());
  }

  private void handle(HttpExchange exchange) throws IOException {
    long arrived = System.nanoTime();
    Answer scripted = script.poll();
    Answer answer = scripted != null ? scripted : always.get();
    String path = exchange.getRequestURI().getPath();
    requests.add(new Request(arrived, path, answer));
    try (exchange) {
      if (answer instanceof Answer.Hang) {
        hanging.get().await(LONGEST_HANG_SECONDS, TimeUnit.SECONDS);
      }
      if (answer instanceof Answer.Item || answer instanceof Answer.Hang) {
        byte[] body = ("item-" + path.substring(path.lastIndexOf('/') + 1)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      } else if (answer instanceof Answer.Status) {
        Answer.Status status = (Answer.Status) answer;
        if (status.retryAfter() != null) {
          exchange.getResponseHeaders().set("Retry-After", status.retryAfter());
        }
        exchange.sendResponseHeaders(status.status(), -1);
      }
      // Drop: closed without a status line.
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // The client stopped waiting; nothing to answer.
    }
  }

  /** Releases hanging requests and stops at once. */
  @Override
  public void close() {
    hanging.get().countDown();
    server.stop(0);
    handlers.shutdownNow();
  }
}
