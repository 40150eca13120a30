package dev.brace.examples.tail;

import java.io.IOException;

/** What the demo's callers call: the price of a product, by its SKU, from the price service. */
@FunctionalInterface
public interface PriceClient {
  /**
   * @param sku the product
   * @return its price, as the service writes it
   * @throws IOException when the service cannot be reached or answers with an error
   */
  String price(String sku) throws IOException;
}
