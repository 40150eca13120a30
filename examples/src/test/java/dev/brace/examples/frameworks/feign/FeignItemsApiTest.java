package dev.brace.examples.frameworks.feign;

import dev.brace.examples.frameworks.Attempts;
import dev.brace.examples.frameworks.ClientFrameworkContract;
import dev.brace.runtime.Registry;
import feign.FeignException;
import feign.RetryableException;
import java.net.URI;
import java.time.Duration;

/** OpenFeign with its default client ({@code HttpURLConnection}), made as {@link FeignItems} makes it. */
class FeignItemsApiTest extends ClientFrameworkContract {

  @Override
  protected String framework() {
    return "OpenFeign (Client.Default, HttpURLConnection)";
  }

  @Override
  protected String callName() {
    return "FeignItemsApi.item";
  }

  @Override
  protected String instanceName() {
    return "items-feign";
  }

  @Override
  protected Items wrap(URI baseUri, Duration readTimeout, Registry registry, Attempts attempts) {
    FeignItemsApi feign = FeignItems.plain(baseUri, readTimeout);
    FeignItemsApi recorded = id -> attempts.around(() -> feign.item(id));
    return ResilientFeignItemsApi.wrap(recorded, registry)::item;
  }

  @Override
  protected Class<? extends Throwable> ioFailureType() {
    return RetryableException.class;
  }

  @Override
  protected Class<? extends Throwable> unavailableType() {
    return FeignException.ServiceUnavailable.class;
  }

  /** Feign's default decoder: an answer with Retry-After becomes a RetryableException. */
  @Override
  protected Class<? extends Throwable> throttledType() {
    return RetryableException.class;
  }

  /**
   * Measured: HttpURLConnection's socket read ignores an interrupt on a platform thread and waits for its read
   * timeout; on a virtual thread (JDK 21+) the interrupt closes the socket ({@code SocketException}).
   */
  @Override
  protected boolean interruptEndsTheRead(boolean onVirtualThread) {
    return onVirtualThread;
  }
}
