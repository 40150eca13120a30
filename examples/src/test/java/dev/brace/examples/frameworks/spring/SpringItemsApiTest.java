package dev.brace.examples.frameworks.spring;

import dev.brace.examples.frameworks.Attempts;
import dev.brace.examples.frameworks.ClientFrameworkContract;
import dev.brace.runtime.Registry;
import java.net.URI;
import java.time.Duration;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

/** The Spring HTTP interface on {@code RestClient} over the JDK's {@code HttpClient}, made as {@link SpringItems} makes it. */
class SpringItemsApiTest extends ClientFrameworkContract {

  @Override
  protected String framework() {
    return "Spring HTTP interface on RestClient (JdkClientHttpRequestFactory)";
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
    SpringItemsApi spring = SpringItems.plain(baseUri, readTimeout);
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

  /**
   * Measured: {@code JdkClientHttpRequestFactory} waits on the JDK {@code HttpClient}'s future, which an
   * interrupt ends ({@code ResourceAccessException} caused by an {@code IOException}).
   */
  @Override
  protected boolean interruptEndsTheRead(boolean onVirtualThread) {
    return true;
  }
}
