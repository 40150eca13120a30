package dev.brace.spring;

import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The registry's circuit breakers in {@code /actuator/health}, one detail per breaker (its state,
 * and how long until an OPEN one admits a probe). An open breaker means a dependency is failing,
 * not that this application is: it is UP unless {@code brace.health.open-breaker-down=true}, which
 * reports {@code OUT_OF_SERVICE} while any breaker is OPEN (so a load balancer can route around
 * an instance whose dependency is down).
 */
public final class BraceHealthIndicator implements HealthIndicator {
  private final Registry registry;
  private final boolean openBreakerDown;

  /**
   * @param registry the registry whose breakers are reported
   * @param openBreakerDown whether an OPEN breaker makes the application {@code OUT_OF_SERVICE}
   * @throws NullPointerException when {@code registry} is null
   */
  public BraceHealthIndicator(Registry registry, boolean openBreakerDown) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.openBreakerDown = openBreakerDown;
  }

  /** @return UP with the breakers' states; OUT_OF_SERVICE when asked for and a breaker is OPEN */
  @Override
  public Health health() {
    Map<String, Object> breakers = new LinkedHashMap<>();
    boolean anyOpen = false;
    for (String name : registry.names().getOrDefault("circuitbreaker", Set.of())) {
      CircuitBreakerHandle breaker;
      try {
        breaker = registry.circuitBreaker(name);
      } catch (IllegalArgumentException evicted) {
        // A keyed member evicted since names() listed it.
        continue;
      }
      CircuitState state = breaker.state();
      anyOpen |= state == CircuitState.OPEN;
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("state", state.name());
      breaker.retryAfter().ifPresent(wait -> detail.put("retryAfterMs", wait.toMillis()));
      breakers.put(name, detail);
    }
    Health.Builder health = new Health.Builder(openBreakerDown && anyOpen ? Status.OUT_OF_SERVICE : Status.UP);
    return health.withDetail("circuitBreakers", breakers).build();
  }
}
