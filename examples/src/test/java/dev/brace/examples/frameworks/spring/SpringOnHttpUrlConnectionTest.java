package dev.brace.examples.frameworks.spring;

import dev.brace.examples.frameworks.Attempts;
import dev.brace.examples.frameworks.ClientFrameworkContract;
import dev.brace.runtime.Registry;
import java.net.URI;
import java.time.Duration;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

/**
 * The same Spring HTTP interface on {@code SimpleClientHttpRequestFactory}, that is {@code
 * HttpURLConnection}: what {@code RestClient} falls back to without the JDK {@code HttpClient}
 * factory, and what a timeout then does to its read.
 */
class SpringOnHttpUrlConnectionTest extends ClientFrameworkContract {

  @Override
  protected String framework() {
    return "Spring HTTP interface on RestClient (SimpleClientHttpRequestFactory)";
  }

  @Override
  protected String callName() {
    return "SpringItemsApi.item";
  }

  @Override
  protected String instanceName() {
    return "items-spring";
  }

  @Override
  protected Items wrap(URI baseUri, Duration readTimeout, Registry registry, Attempts attempts) {
    SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
    requests.setConnectTimeout(Duration.ofMillis(500));
    requests.setReadTimeout(readTimeout);
    SpringItemsApi spring = SpringItems.plain(baseUri, requests);
    SpringItemsApi recorded = id -> attempts.around(() -> spring.item(id));
    return ResilientSpringItemsApi.wrap(recorded, registry)::item;
  }

  @Override
  protected Class<? extends Throwable> ioFailureType() {
    return ResourceAccessException.class;
  }

  @Override
  protected Class<? extends Throwable> unavailableType() {
    return HttpServerErrorException.ServiceUnavailable.class;
  }

  @Override
  protected Class<? extends Throwable> throttledType() {
    return HttpClientErrorException.TooManyRequests.class;
  }

  /** Measured: as Feign's default client, {@code HttpURLConnection} hears an interrupt only on a virtual thread. */
  @Override
  protected boolean interruptEndsTheRead(boolean onVirtualThread) {
    return onVirtualThread;
  }
}
