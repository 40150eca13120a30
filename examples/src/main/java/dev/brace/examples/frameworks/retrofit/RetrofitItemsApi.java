package dev.brace.examples.frameworks.retrofit;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import retrofit2.HttpException;
import retrofit2.http.GET;
import retrofit2.http.Path;

/**
 * The items service as a Retrofit interface. The method returns the body itself: {@link
 * SynchronousCallAdapterFactory} executes the {@code Call} inside it, so the request runs inside the
 * wrapper (a {@code Call<String>} would run later, outside it, and does not compile with a Brace
 * annotation).
 *
 * <p>What it throws: an I/O failure as the {@link IOException} itself, an error answer as {@link
 * HttpException} (from the call adapter), which carries the response's {@code Retry-After}. Retrofit
 * has no exception type per status, so the retry names {@code HttpException} for every error answer
 * (a 404 too), and the limiter's {@code throttledOn} names nothing: a 429 or 503 with {@code
 * Retry-After} throttles by its header, and naming {@code HttpException} there would make every error
 * answer a throttling signal.
 */
@CircuitBreaker(name = "items-retrofit", failureThreshold = 5, resetTimeout = "10s")
public interface RetrofitItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   * @throws IOException never with Brace (the fallback answers); without it, when the request fails
   */
  @GET("items/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s", on = {IOException.class, HttpException.class})
  @RateLimit(name = "items-retrofit", permits = 20, per = "1s", adaptive = true)
  @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
  @Fallback(method = "unknown")
  String item(@Path("id") String id) throws IOException;

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }
}
