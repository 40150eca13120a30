package dev.brace.examples.spring;

import dev.brace.Bulkhead;
import dev.brace.Timeout;

/**
 * The stock of an item. Its implementation is a plain {@code @Component}: the starter wraps it in
 * the generated {@code ResilientInventory}, so whoever injects an {@code Inventory} gets the wrapper.
 */
@Bulkhead(name = "inventory", maxConcurrent = 4)
public interface Inventory {
  /**
   * @param item an item
   * @return how many are in stock
   */
  @Timeout("1s")
  int inStock(String item);
}
