package p;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.RateLimit;
import java.util.concurrent.CompletableFuture;

@Criticality(Criticality.Level.SHEDDABLE)
@Bulkhead(name = "search", maxConcurrent = 40, adaptive = Bulkhead.Adaptive.GRADIENT2, minConcurrent = 4, maxWait = "10ms")
public interface Shedding {
  String suggestions(String prefix);

  @Criticality(Criticality.Level.CRITICAL)
  @RateLimit(permits = 100, adaptive = true, throttledOn = IllegalStateException.class, decrease = 0.7)
  String checkout(String cart);

  CompletableFuture<String> recent();
}
