package dev.brace.examples.frameworks.retrofit;

import dev.brace.examples.frameworks.Attempts;
import dev.brace.examples.frameworks.ClientFrameworkContract;
import dev.brace.runtime.Registry;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import retrofit2.HttpException;

/** Retrofit on OkHttp through the synchronous call adapter, made as {@link RetrofitItems} makes it. */
class RetrofitItemsApiTest extends ClientFrameworkContract {

  @Override
  protected String framework() {
    return "Retrofit on OkHttp (SynchronousCallAdapterFactory)";
  }

  @Override
  protected String callName() {
    return "RetrofitItemsApi.item";
  }

  @Override
  protected String instanceName() {
    return "items-retrofit";
  }

  @Override
  protected Items wrap(URI baseUri, Duration readTimeout, Registry registry, Attempts attempts) {
    RetrofitItemsApi retrofit = RetrofitItems.plain(baseUri, readTimeout);
    RetrofitItemsApi recorded = id -> attempts.around(() -> retrofit.item(id));
    return ResilientRetrofitItemsApi.wrap(recorded, registry)::item;
  }

  @Override
  protected Class<? extends Throwable> ioFailureType() {
    return IOException.class;
  }

  @Override
  protected Class<? extends Throwable> unavailableType() {
    return HttpException.class;
  }

  @Override
  protected Class<? extends Throwable> throttledType() {
    return HttpException.class;
  }

  /**
   * Measured: OkHttp's socket read ignores an interrupt on a platform thread and waits for its read timeout;
   * on a virtual thread (JDK 21+) the interrupt ends it ({@code InterruptedIOException}).
   */
  @Override
  protected boolean interruptEndsTheRead(boolean onVirtualThread) {
    return onVirtualThread;
  }
}
