package dev.brace.spring;

import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.RateLimiterHandle;
import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The Actuator endpoint {@code brace}: {@code GET /actuator/brace} lists every instance the registry
 * has made, by kind and name, with its state and the settings it runs on; {@code POST
 * /actuator/brace/circuitbreaker/{name}/reset} closes a breaker; {@code POST
 * /actuator/brace/reconfigure} applies the environment's Brace settings as they are now.
 */
@Endpoint(id = "brace")
public final class BraceEndpoint {
  private final Registry registry;
  private final BraceReconfigurer reconfigurer;

  /**
   * @param registry the registry shown
   * @param reconfigurer what {@code POST /actuator/brace/reconfigure} runs
   * @throws NullPointerException when an argument is null
   */
  public BraceEndpoint(Registry registry, BraceReconfigurer reconfigurer) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.reconfigurer = Objects.requireNonNull(reconfigurer, "reconfigurer");
  }

  /**
   * @return by kind ({@code circuitbreaker}, {@code retry}, …), by name, the instance's state (a
   *     breaker's {@code state}, a limiter's {@code availablePermits}, a bulkhead's {@code inFlight}
   *     and {@code available}) and its {@code settings}; a keyed family's members by {@code name[key]}
   */
  @ReadOperation
  public Map<String, Object> instances() {
    Map<String, Object> byKind = new LinkedHashMap<>();
    registry.names().forEach((kind, names) -> {
      Map<String, Object> byName = new LinkedHashMap<>();
      for (String name : names) {
        Map<String, Object> instance = new LinkedHashMap<>();
        instance.put("kind", kind);
        state(kind, name, instance);
        if (!name.endsWith("]")) {
          instance.put("settings", registry.settings(kind, name));
        }
        byName.put(name, instance);
      }
      byKind.put(kind, byName);
    });
    return byKind;
  }

  private void state(String kind, String name, Map<String, Object> instance) {
    try {
      switch (kind) {
        case "circuitbreaker":
          CircuitBreakerHandle breaker = registry.circuitBreaker(name);
          instance.put("state", breaker.state().name());
          breaker.retryAfter().ifPresent(wait -> instance.put("retryAfterMs", wait.toMillis()));
          break;
        case "ratelimit":
          RateLimiterHandle limiter = registry.rateLimiter(name);
          instance.put("availablePermits", limiter.availablePermits());
          break;
        case "bulkhead":
          BulkheadHandle bulkhead = registry.bulkhead(name);
          instance.put("inFlight", bulkhead.inFlight());
          instance.put("available", bulkhead.available());
          break;
        default:
          // Retries, timeouts, fallbacks and budgets have settings and no state worth showing.
      }
    } catch (IllegalArgumentException goneOrFamily) {
      // A keyed family has no state of its own (its members do), and a member may have been evicted.
    }
  }

  /**
   * @param kind must be {@code circuitbreaker}
   * @param name the breaker's name ({@code name[key]} for a keyed one)
   * @param action must be {@code reset}
   * @return the breaker's name and its state after the reset
   * @throws InvalidEndpointRequestException (400) for another kind or action, or an unknown breaker
   */
  @WriteOperation
  public Map<String, Object> reset(@Selector String kind, @Selector String name, @Selector String action) {
    if (!kind.equals("circuitbreaker") || !action.equals("reset")) {
      throw new InvalidEndpointRequestException(
          "only POST /actuator/brace/circuitbreaker/{name}/reset acts on an instance", "unknown action");
    }
    CircuitBreakerHandle breaker;
    try {
      breaker = registry.circuitBreaker(name);
    } catch (IllegalArgumentException unknown) {
      throw new InvalidEndpointRequestException(unknown.getMessage(), "unknown circuit breaker");
    }
    breaker.reset();
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("name", name);
    result.put("state", breaker.state().name());
    return result;
  }

  /**
   * @param action must be {@code reconfigure}
   * @return {@code reconfigured: true} and every instance as {@link #instances()} shows it
   * @throws InvalidEndpointRequestException (400) for another action, or when the environment holds
   *     a refused setting (its message names each one; nothing changed then)
   */
  @WriteOperation
  public Map<String, Object> reconfigure(@Selector String action) {
    if (!action.equals("reconfigure")) {
      throw new InvalidEndpointRequestException("POST /actuator/brace/reconfigure is the only action here", "unknown action");
    }
    try {
      reconfigurer.reconfigure();
    } catch (ConfigurationException refused) {
      throw new InvalidEndpointRequestException(refused.getMessage(), "reconfiguration refused");
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("reconfigured", true);
    result.put("instances", instances());
    return result;
  }
}
