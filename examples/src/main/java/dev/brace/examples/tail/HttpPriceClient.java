package dev.brace.examples.tail;

import dev.brace.examples.HttpRecsClient;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The plain implementation of {@link PriceClient}: one HTTP GET per call with the JDK's {@link
 * HttpClient}. Each request names the {@code way} it is sent for, so the service can count them.
 */
public final class HttpPriceClient implements PriceClient {
  /** The client's own request timeout: far beyond the slowest answer, it never fires in the demo. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient http;
  private final URI baseUri;
  private final String way;

  /**
   * @param http the HTTP client (shared, thread-safe)
   * @param baseUri the service
   * @param way what the service counts these requests under
   */
  public HttpPriceClient(HttpClient http, URI baseUri, String way) {
    this.http = Objects.requireNonNull(http, "http");
    this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
    this.way = Objects.requireNonNull(way, "way");
  }

  /**
   * @throws IOException on any status but 200, a connection failure, or an interrupt (a timeout or
   *     a hedge that won elsewhere stops the request this way); then the interrupt flag stays set
   */
  @Override
  public String price(String sku) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(baseUri.resolve(
            "/price?sku=" + URLEncoder.encode(sku, StandardCharsets.UTF_8) + "&way=" + way))
        .timeout(REQUEST_TIMEOUT)
        .GET()
        .build();
    HttpResponse<String> response = HttpRecsClient.send(http, request);
    if (response.statusCode() != 200) {
      throw new IOException(response.statusCode() + " from " + request.uri());
    }
    return response.body();
  }

  @Override
  public String toString() {
    return "HttpPriceClient[" + baseUri + ", " + way + "]";
  }
}
