package dev.brace.examples.tail;

import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;

/**
 * The usual answer to a slow dependency: give up on an attempt that takes more than 50 ms, about
 * four times a normal answer, and try again at once.
 */
@FunctionalInterface
public interface RetryingPriceClient extends PriceClient {
  @Override
  @Retry(maxAttempts = 3, delay = "0ms", jitter = Retry.Jitter.NONE)
  @Timeout("50ms")
  String price(String sku) throws IOException;
}
