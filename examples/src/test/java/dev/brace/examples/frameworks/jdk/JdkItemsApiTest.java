package dev.brace.examples.frameworks.jdk;

import dev.brace.examples.HttpRecsClient;
import dev.brace.examples.frameworks.Attempts;
import dev.brace.examples.frameworks.ClientFrameworkContract;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/** An interface of one's own on the JDK's {@code HttpClient}: {@link HttpClientItemsApi}. */
class JdkItemsApiTest extends ClientFrameworkContract {

  @Override
  protected String framework() {
    return "JDK HttpClient";
  }

  @Override
  protected String callName() {
    return "JdkItemsApi.item";
  }

  @Override
  protected String instanceName() {
    return "items-jdk";
  }

  @Override
  protected Items wrap(URI baseUri, Duration readTimeout, Registry registry, Attempts attempts) {
    JdkItemsApi jdk = new HttpClientItemsApi(HttpRecsClient.defaultHttpClient(), baseUri, readTimeout);
    JdkItemsApi recorded = id -> attempts.around(() -> jdk.item(id));
    return ResilientJdkItemsApi.wrap(recorded, registry)::item;
  }

  @Override
  protected Class<? extends Throwable> ioFailureType() {
    return IOException.class;
  }

  @Override
  protected Class<? extends Throwable> unavailableType() {
    return HttpStatusException.class;
  }

  @Override
  protected Class<? extends Throwable> throttledType() {
    return HttpStatusException.TooManyRequests.class;
  }

  /**
   * Measured: {@code HttpClient.send} waits interruptibly; the client turns the interrupt into an {@code
   * InterruptedIOException}.
   */
  @Override
  protected boolean interruptEndsTheRead(boolean onVirtualThread) {
    return true;
  }
}
