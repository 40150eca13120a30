package dev.brace.examples.capacity;

import dev.brace.examples.HttpRecsClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

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
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<String> response = HttpRecsClient.send(http, request);
    if (response.statusCode() == 200) {
      return response.body();
    }
    if (response.statusCode() == 429) {
      throw new TooManyRequestsException("429 from " + request.uri(), HttpRecsClient.retryAfter(response).orElse(null));
    }
    throw new IOException(response.statusCode() + " from " + request.uri());
  }
}
