package dev.brace.examples;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The plain implementation of {@link RecsClient}: one HTTP GET per call with the JDK's {@link
 * HttpClient}, and nothing else. It knows HTTP (status codes, {@code Retry-After}); it knows
 * nothing about retries, breakers or fallbacks.
 */
public final class HttpRecsClient implements RecsClient {

  /** The client's own request timeout, as a typical team would set it. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);

  private final HttpClient http;
  private final URI baseUri;

  /**
   * @param http the HTTP client (shared, thread-safe)
   * @param baseUri the service, e.g. {@code http://127.0.0.1:8080}
   */
  public HttpRecsClient(HttpClient http, URI baseUri) {
    this.http = Objects.requireNonNull(http, "http");
    this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
  }

  /** @return an HTTP client suited to this service: HTTP/1.1, 500 ms to connect */
  public static HttpClient defaultHttpClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofMillis(500))
        .build();
  }

  /**
   * @throws ServiceUnavailableException on 503, with the service's {@code Retry-After}
   * @throws IOException on any other status than 200, on a connection failure, or after {@link
   *     #REQUEST_TIMEOUT} ({@link java.net.http.HttpTimeoutException})
   */
  @Override
  public List<String> recommendations(String userId) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(
            baseUri.resolve("/recs?user=" + URLEncoder.encode(userId, StandardCharsets.UTF_8)))
        .timeout(REQUEST_TIMEOUT)
        .GET()
        .build();
    HttpResponse<String> response = send(http, request);
    int status = response.statusCode();
    if (status == 200) {
      return Arrays.asList(response.body().split(","));
    }
    if (status == 503) {
      throw new ServiceUnavailableException("503 from " + request.uri(), retryAfter(response).orElse(null));
    }
    throw new IOException(status + " from " + request.uri());
  }

  /**
   * Sends a request and reads its body as text. An interrupt (a {@code @Timeout(mode = INTERRUPT)},
   * or a hedge that won elsewhere, ends an attempt this way) becomes an {@link
   * InterruptedIOException}, the flag kept for whoever asked.
   *
   * @param http the client
   * @param request the request
   * @return the response, whatever its status
   * @throws IOException when the request fails, or was interrupted
   */
  public static HttpResponse<String> send(HttpClient http, HttpRequest request) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      InterruptedIOException stopped = new InterruptedIOException("interrupted while waiting for " + request.uri());
      stopped.initCause(interrupted);
      throw stopped;
    }
  }

  /**
   * @param response an answer
   * @return its {@code Retry-After} in the delta-seconds form; the HTTP-date form is left out for brevity
   */
  public static Optional<Duration> retryAfter(HttpResponse<?> response) {
    return response.headers().firstValue("Retry-After").flatMap(value -> {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(value.trim())));
      } catch (NumberFormatException notSeconds) {
        return Optional.empty();
      }
    });
  }

  @Override
  public String toString() {
    return "HttpRecsClient[" + baseUri + "]";
  }
}
