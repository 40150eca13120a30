package dev.brace.examples.tail;

import dev.brace.Hedge;
import java.io.IOException;

/**
 * Hedging: when no answer has come 20 ms after the last attempt started (past the slowest normal
 * answer), send one more, up to two more, and take whichever answers first.
 */
@FunctionalInterface
public interface HedgingPriceClient extends PriceClient {
  @Override
  @Hedge(delay = "20ms", maxHedges = 2)
  String price(String sku) throws IOException;
}
