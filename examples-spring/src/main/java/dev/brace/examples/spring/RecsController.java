package dev.brace.examples.spring;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** The application's HTTP API; both dependencies arrive wrapped. */
@RestController
public class RecsController {
  private final Recommendations recommendations;
  private final Inventory inventory;

  /**
   * @param recommendations the generated wrapper the {@code @Bean} method provides
   * @param inventory the plain bean, wrapped by the starter
   */
  public RecsController(Recommendations recommendations, Inventory inventory) {
    this.recommendations = recommendations;
    this.inventory = inventory;
  }

  /**
   * @param userId whose recommendations
   * @return the recommendations, or the editors' picks while the service fails
   */
  @GetMapping("/recs/{userId}")
  public List<String> recommendations(@PathVariable String userId) {
    return recommendations.forUser(userId);
  }

  /**
   * @param item an item
   * @return its stock, and the class that answered (the generated wrapper)
   */
  @GetMapping("/stock/{item}")
  public Map<String, Object> stock(@PathVariable String item) {
    return Map.of("item", item, "inStock", inventory.inStock(item), "via", inventory.getClass().getSimpleName());
  }
}
