package dev.brace.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real client behind the wrapper: plain HTTP against {@link FaultyServer}. It counts its own
 * invocations per method and remembers every exception it throws, so the soak can tell that a
 * caller received exactly that exception and not a wrapper or a copy.
 */
final class SoakDelegate implements SoakClient {
  /** A 5xx answer: a checked exception of the client's own. */
  static final class UpstreamException extends IOException {
    private static final long serialVersionUID = 1L;

    UpstreamException(int status) {
      super("upstream answered " + status);
    }
  }

  final AtomicLong syncInvocations = new AtomicLong();
  final AtomicLong abandonInvocations = new AtomicLong();
  final AtomicLong asyncInvocations = new AtomicLong();
  /** Invocations whose work (blocking read or future) has not finished yet. */
  final AtomicLong running = new AtomicLong();
  private final Set<Throwable> thrown = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
  private final FaultyServer server;
  private final ExecutorService httpThreads = Executors.newFixedThreadPool(4, runnable -> {
    Thread thread = new Thread(runnable, "soak-http-client");
    thread.setDaemon(true);
    return thread;
  });
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
          .executor(httpThreads).build();

  SoakDelegate(FaultyServer server) {
    this.server = server;
  }

  @Override
  public String get(String path) throws IOException {
    syncInvocations.incrementAndGet();
    return blockingGet(path);
  }

  @Override
  public String getAbandoning(String path) throws IOException {
    abandonInvocations.incrementAndGet();
    return blockingGet(path);
  }

  @Override
  public CompletableFuture<String> getAsync(String path) {
    asyncInvocations.incrementAndGet();
    running.incrementAndGet();
    CompletableFuture<String> result = new CompletableFuture<>();
    http.sendAsync(HttpRequest.newBuilder(server.uri(path)).timeout(Duration.ofSeconds(3)).build(),
            HttpResponse.BodyHandlers.ofString())
        .whenComplete((response, failure) -> {
          running.decrementAndGet();
          Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
          if (cause != null) {
            result.completeExceptionally(remember(cause));
          } else if (response.statusCode() >= 500) {
            result.completeExceptionally(remember(new UpstreamException(response.statusCode())));
          } else {
            result.complete(response.body());
          }
        });
    return result;
  }

  private String blockingGet(String path) throws IOException {
    running.incrementAndGet();
    try {
      HttpURLConnection connection = (HttpURLConnection) server.uri(path).toURL().openConnection();
      connection.setConnectTimeout(2_000);
      connection.setReadTimeout(3_000);
      connection.setRequestProperty("Connection", "close");
      int status = connection.getResponseCode();
      if (status >= 500) {
        throw new UpstreamException(status);
      }
      try (InputStream body = connection.getInputStream()) {
        return new String(body.readAllBytes());
      }
    } catch (IOException failure) {
      throw remember(failure);
    } catch (RuntimeException failure) {
      throw remember(failure);
    } finally {
      running.decrementAndGet();
    }
  }

  private <X extends Throwable> X remember(X failure) {
    thrown.add(failure);
    return failure;
  }

  /** @return whether this delegate threw exactly this exception object */
  boolean threw(Throwable failure) {
    return thrown.contains(failure);
  }

  void close() {
    httpThreads.shutdownNow();
  }
}
