package dev.brace.examples.frameworks.jdk;

import dev.brace.examples.HttpRecsClient;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The plain implementation of {@link JdkItemsApi}: one GET per call with the JDK's {@link
 * HttpClient}, written as {@link HttpRecsClient} is.
 */
public final class HttpClientItemsApi implements JdkItemsApi {
  /** The client's own read timeout, longer than Brace's per-attempt timeout. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient http;
  private final URI baseUri;
  private final Duration readTimeout;

  /**
   * @param http the HTTP client (shared, thread-safe)
   * @param baseUri the items service
   * @param readTimeout how long one request waits for its answer
   */
  public HttpClientItemsApi(HttpClient http, URI baseUri, Duration readTimeout) {
    this.http = Objects.requireNonNull(http, "http");
    this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
    this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
  }

  /**
   * @param baseUri the items service
   * @param registry the registry the wrapper's instances live in
   * @return the client, wrapped
   */
  public static JdkItemsApi resilient(URI baseUri, Registry registry) {
    return ResilientJdkItemsApi.wrap(new HttpClientItemsApi(HttpRecsClient.defaultHttpClient(), baseUri, READ_TIMEOUT), registry);
  }

  /**
   * @throws HttpStatusException for an answer other than 2xx
   * @throws IOException when the request fails, is interrupted ({@link java.io.InterruptedIOException}),
   *     or has no answer within the read timeout ({@link java.net.http.HttpTimeoutException})
   */
  @Override
  public String item(String id) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(
            baseUri.resolve("/items/" + URLEncoder.encode(id, StandardCharsets.UTF_8)))
        .timeout(readTimeout)
        .GET()
        .build();
    HttpResponse<String> response = HttpRecsClient.send(http, request);
    if (response.statusCode() / 100 == 2) {
      return response.body();
    }
    throw HttpStatusException.of(response, Clock.systemUTC());
  }

  @Override
  public String toString() {
    return "HttpClientItemsApi[" + baseUri + "]";
  }
}
