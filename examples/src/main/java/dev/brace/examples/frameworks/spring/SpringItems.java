package dev.brace.examples.frameworks.spring;

import dev.brace.runtime.Registry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/** How the Spring HTTP interface is made and wrapped without Spring Boot. */
public final class SpringItems {
  /** The client's own read timeout, longer than Brace's per-attempt timeout. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private SpringItems() {}

  /**
   * @param baseUri the items service
   * @param registry the registry the wrapper's instances live in
   * @return the HTTP interface, wrapped
   */
  public static SpringItemsApi resilient(URI baseUri, Registry registry) {
    return ResilientSpringItemsApi.wrap(plain(baseUri, READ_TIMEOUT), registry);
  }

  /**
   * The HTTP interface as Spring makes it, on a {@code RestClient} over the JDK's {@code HttpClient}
   * (what {@code RestClient} picks when no other HTTP library is on the class path).
   *
   * @param baseUri the items service
   * @param readTimeout how long the client waits for an answer
   * @return Spring's proxy, not wrapped
   */
  public static SpringItemsApi plain(URI baseUri, Duration readTimeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(http);
    requests.setReadTimeout(readTimeout);
    return plain(baseUri, requests);
  }

  /**
   * @param baseUri the items service
   * @param requests the HTTP library under {@code RestClient}
   * @return Spring's proxy on that library, not wrapped
   */
  public static SpringItemsApi plain(URI baseUri, ClientHttpRequestFactory requests) {
    RestClient rest = RestClient.builder().baseUrl(baseUri.toString()).requestFactory(requests).build();
    return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(rest)).build().createClient(SpringItemsApi.class);
  }
}
