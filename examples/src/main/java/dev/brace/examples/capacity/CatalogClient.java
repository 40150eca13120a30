package dev.brace.examples.capacity;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.Timeout;
import java.io.IOException;

/**
 * The catalog service's client. Product pages matter; suggestions can go when the service is
 * short of capacity. The bulkhead is adaptive (Vegas): its limit follows what the service can take,
 * up to 60; the demo's fixed runs set {@code adaptive = NONE} and {@code maxConcurrent} by
 * configuration.
 */
@Bulkhead(name = "catalog-api", maxConcurrent = 60, adaptive = Bulkhead.Adaptive.VEGAS, initialConcurrent = 20, minConcurrent = 4)
@Timeout("5s")
public interface CatalogClient {

  /** @return a product page: a {@code DEFAULT} call, admitted up to 90% of the limit */
  String page(String user) throws IOException;

  /** @return suggestions: shed first, admitted up to half the limit */
  @Criticality(Criticality.Level.SHEDDABLE)
  String suggestions(String user) throws IOException;
}
