package dev.brace.examples.capacity;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A service on the JDK's HTTP server, on a free loopback port, with two resources:
 *
 * <ul>
 *   <li>{@code /item}: serves at most {@link #capacity(int)} requests at once, each for {@link
 *       #SERVICE_TIME}; the others queue in arrival order, so beyond its capacity latency grows with
 *       the queue, as a service short of threads or database connections does.
 *   <li>{@code /quota}: allows {@link #QUOTA} requests a second (a token bucket of that many) and
 *       answers the rest 429 with {@code Retry-After: 1}.
 * </ul>
 */
public final class CatalogService implements AutoCloseable {
  /** How long {@code /item} takes once a request is being served, on average (± 20%). */
  public static final Duration SERVICE_TIME = Duration.ofMillis(1000);
  /** Requests a second {@code /quota} allows. */
  public static final int QUOTA = 50;

  private final HttpServer server;
  private final ExecutorService workers;
  private final ReentrantLock lock = new ReentrantLock(true);
  private final Condition slotFreed = lock.newCondition();
  private int capacity;
  private int serving;
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicInteger throttled = new AtomicInteger();
  private final AtomicInteger quotaServed = new AtomicInteger();
  private double quotaTokens = QUOTA;
  private long quotaRefilledAt = System.nanoTime();

  private CatalogService(int capacity) throws IOException {
    this.capacity = capacity;
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "catalog-service-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 400);
    server.createContext("/item", this::item);
    server.createContext("/quota", this::quota);
    server.setExecutor(workers);
  }

  /**
   * @param capacity requests {@code /item} serves at once to begin with
   * @return the running service
   * @throws IOException when no port can be bound
   */
  public static CatalogService start(int capacity) throws IOException {
    CatalogService service = new CatalogService(capacity);
    service.server.start();
    return service;
  }

  /** @return where it listens */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** @param capacity requests {@code /item} serves at once from now on */
  public void capacity(int capacity) {
    lock.lock();
    try {
      this.capacity = capacity;
      slotFreed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** @return {@code /item} requests waiting for a slot now */
  public int queued() {
    return queued.get();
  }

  /** @return 429s answered so far */
  public int throttled() {
    return throttled.get();
  }

  /** @return {@code /quota} requests answered 200 so far */
  public int quotaServed() {
    return quotaServed.get();
  }

  private void item(HttpExchange exchange) throws IOException {
    try {
      queued.incrementAndGet();
      lock.lockInterruptibly();
      try {
        while (serving >= capacity) {
          slotFreed.await();
        }
        serving++;
      } finally {
        queued.decrementAndGet();
        lock.unlock();
      }
      try {
        // Each request takes its time, give or take a fifth, so callers do not move in lockstep.
        long millis = SERVICE_TIME.toMillis();
        Thread.sleep(millis * 4 / 5 + java.util.concurrent.ThreadLocalRandom.current().nextLong(millis * 2 / 5 + 1));
      } finally {
        lock.lock();
        try {
          serving--;
          slotFreed.signal();
        } finally {
          lock.unlock();
        }
      }
      answer(exchange, 200, "item");
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
      answer(exchange, 503, "stopping");
    }
  }

  private void quota(HttpExchange exchange) throws IOException {
    boolean allowed;
    synchronized (this) {
      long now = System.nanoTime();
      quotaTokens = Math.min(QUOTA, quotaTokens + (now - quotaRefilledAt) * QUOTA / 1e9);
      quotaRefilledAt = now;
      allowed = quotaTokens >= 1;
      if (allowed) {
        quotaTokens -= 1;
      }
    }
    if (allowed) {
      quotaServed.incrementAndGet();
      answer(exchange, 200, "ok");
    } else {
      throttled.incrementAndGet();
      exchange.getResponseHeaders().add("Retry-After", "1");
      answer(exchange, 429, "slow down");
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
