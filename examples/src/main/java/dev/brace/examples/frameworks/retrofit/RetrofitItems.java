package dev.brace.examples.frameworks.retrofit;

import dev.brace.runtime.Registry;
import java.net.URI;
import java.time.Duration;
import okhttp3.OkHttpClient;
import retrofit2.Retrofit;
import retrofit2.converter.scalars.ScalarsConverterFactory;

/** How the Retrofit interface is made and wrapped. */
public final class RetrofitItems {
  /** The client's own read timeout, longer than Brace's per-attempt timeout. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private RetrofitItems() {}

  /**
   * @param baseUri the items service
   * @param registry the registry the wrapper's instances live in
   * @return the Retrofit client, wrapped
   */
  public static RetrofitItemsApi resilient(URI baseUri, Registry registry) {
    return ResilientRetrofitItemsApi.wrap(plain(baseUri, READ_TIMEOUT), registry);
  }

  /**
   * The interface as Retrofit makes it, on OkHttp, with the synchronous call adapter.
   *
   * @param baseUri the items service
   * @param readTimeout how long the client waits for an answer
   * @return Retrofit's proxy, not wrapped
   */
  public static RetrofitItemsApi plain(URI baseUri, Duration readTimeout) {
    OkHttpClient http = new OkHttpClient.Builder()
        .connectTimeout(Duration.ofMillis(500))
        .readTimeout(readTimeout)
        .build();
    return new Retrofit.Builder()
        .baseUrl(baseUri.toString() + "/")
        .client(http)
        .addConverterFactory(ScalarsConverterFactory.create())
        .addCallAdapterFactory(SynchronousCallAdapterFactory.create())
        .build()
        .create(RetrofitItemsApi.class);
  }
}
