package dev.brace.examples.capacity;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** Both clients over {@code java.net.http}: the catalog's pages and suggestions, and the quota API. */
public final class HttpCatalogClient implements CatalogClient, QuotaClient {
  private final HttpClient http;
  private final URI base;

  /**
   * @param http the HTTP client
   * @param base the service, e.g. {@code http://127.0.0.1:8080}
   */
  public HttpCatalogClient(HttpClient http, URI base) {
    this.http = Objects.requireNonNull(http, "http");
    this.base = Objects.requireNonNull(base, "base");
  }

  /** @throws IOException on a status other than 200, or when interrupted (a {@code @Timeout}) */
  @Override
  public String page(String user) throws IOException {
    return get("/item?user=" + user);
  }

  /** @throws IOException on a status other than 200, or when interrupted (a {@code @Timeout}) */
  @Override
  public String suggestions(String user) throws IOException {
    return get("/item?user=" + user);
  }

  /**
   * @throws TooManyRequestsException on 429, with the service's {@code Retry-After}
   * @throws IOException on another status than 200
   */
  @Override
  public String lookup(String user) throws IOException {
    return get("/quota?user=" + user);
  }

  private String get(String path) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      InterruptedIOException stopped = new InterruptedIOException("interrupted while waiting for " + request.uri());
      stopped.initCause(interrupted);
      throw stopped;
    }
    if (response.statusCode() == 200) {
      return response.body();
    }
    if (response.statusCode() == 429) {
      Optional<Duration> retryAfter = response.headers().firstValue("Retry-After").map(s -> Duration.ofSeconds(Long.parseLong(s.trim())));
      throw new TooManyRequestsException("429 from " + request.uri(), retryAfter.orElse(null));
    }
    throw new IOException(response.statusCode() + " from " + request.uri());
  }
}
