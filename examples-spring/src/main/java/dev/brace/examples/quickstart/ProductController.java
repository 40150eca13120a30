package dev.brace.examples.quickstart;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** The service's own endpoint: a product, as the catalog describes it. */
@RestController
public class ProductController {
  private final CatalogClient catalog;

  /** @param catalog the client, as the starter wraps it */
  public ProductController(CatalogClient catalog) {
    this.catalog = catalog;
  }

  /**
   * @param sku a product
   * @return its description
   */
  @GetMapping("/products/{sku}")
  public String product(@PathVariable String sku) {
    return catalog.product(sku);
  }
}
