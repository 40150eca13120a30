package dev.brace.examples.frameworks.webclient;

import dev.brace.runtime.Registry;
import java.net.URI;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.support.WebClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

/** How the Spring HTTP interface on {@code WebClient} is made and wrapped without Spring Boot. */
public final class WebClientItems {
  private WebClientItems() {}

  /**
   * @param baseUri the items service
   * @param registry the registry the wrapper's instances live in
   * @return the HTTP interface, wrapped
   */
  public static WebClientItemsApi resilient(URI baseUri, Registry registry) {
    return ResilientWebClientItemsApi.wrap(plain(baseUri), registry);
  }

  /**
   * The HTTP interface as Spring makes it, on a {@code WebClient} over reactor-netty (what {@code
   * WebClient} picks when it is on the class path).
   *
   * @param baseUri the items service
   * @return Spring's proxy, not wrapped
   */
  public static WebClientItemsApi plain(URI baseUri) {
    WebClient web = WebClient.builder().baseUrl(baseUri.toString()).build();
    return HttpServiceProxyFactory.builderFor(WebClientAdapter.create(web)).build().createClient(WebClientItemsApi.class);
  }
}
