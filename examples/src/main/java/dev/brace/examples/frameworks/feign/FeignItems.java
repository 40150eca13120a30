package dev.brace.examples.frameworks.feign;

import dev.brace.runtime.Registry;
import feign.Feign;
import feign.Request;
import feign.Retryer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** How the Feign interface is made and wrapped. */
public final class FeignItems {
  /** The client's own read timeout, longer than Brace's per-attempt timeout. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private FeignItems() {}

  /**
   * @param baseUri the items service
   * @param registry the registry the wrapper's instances live in
   * @return the Feign client, wrapped
   */
  public static FeignItemsApi resilient(URI baseUri, Registry registry) {
    return ResilientFeignItemsApi.wrap(plain(baseUri, READ_TIMEOUT), registry);
  }

  /**
   * The interface as Feign makes it, with its default client ({@code HttpURLConnection}). Feign's own
   * retryer is switched off: by default it retries every {@code RetryableException} up to five times,
   * which would multiply Brace's attempts.
   *
   * @param baseUri the items service
   * @param readTimeout how long the client waits for an answer
   * @return Feign's proxy, not wrapped
   */
  public static FeignItemsApi plain(URI baseUri, Duration readTimeout) {
    return Feign.builder()
        .retryer(Retryer.NEVER_RETRY)
        .options(new Request.Options(500, TimeUnit.MILLISECONDS, readTimeout.toMillis(), TimeUnit.MILLISECONDS, true))
        .target(FeignItemsApi.class, baseUri.toString());
  }
}
