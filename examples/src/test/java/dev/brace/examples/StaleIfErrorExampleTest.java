package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.test.BraceTest;
import dev.brace.test.BraceTestKit;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the guide's "Stale answers" section claims, with the same settings. */
@BraceTest
class StaleIfErrorExampleTest {

  /** The guide's {@code PriceClient}. */
  interface PriceClient {
    @StaleIfError(maxAge = "1h", key = "{sku}")
    @Retry(maxAttempts = 2, delay = "0ms", on = IOException.class)
    @Fallback(method = "unknownPrice")
    long price(String sku) throws IOException;

    default long unknownPrice(String sku) {
      return -1;
    }
  }

  @Test
  void aFailureIsAnsweredWithTheKeysLatestPriceThenTheFallback(BraceTestKit brace) throws IOException {
    AtomicBoolean down = new AtomicBoolean();
    AtomicInteger calls = new AtomicInteger();
    PriceClient prices = brace.wrap(PriceClient.class, sku -> {
      calls.incrementAndGet();
      if (down.get()) {
        throw new IOException("prices down");
      }
      return 42;
    });

    assertEquals(42, prices.price("tea"));
    down.set(true);
    brace.advance(Duration.ofMinutes(5));
    assertEquals(42, prices.price("tea"), "the 5-minute-old price answers");
    brace.call("StaleIfErrorExampleTest.PriceClient.price").retried(1).servedStale();
    assertEquals(3, calls.get(), "after both attempts failed");
    assertEquals(-1, prices.price("coffee"), "nothing remembered for coffee: the fallback answers");
    brace.call("StaleIfErrorExampleTest.PriceClient.price").fellBack();
    brace.advance(Duration.ofMinutes(56));
    assertEquals(-1, prices.price("tea"), "61 minutes old: past maxAge");
  }
}
