package dev.brace.examples.spring;

import org.springframework.stereotype.Component;

/** The inventory, as a plain bean: no Brace code here. */
@Component
public class WarehouseInventory implements Inventory {
  /** Created by Spring. */
  public WarehouseInventory() {}

  @Override
  public int inStock(String item) {
    return item.length();
  }
}
