package dev.brace.spring;

import dev.brace.runtime.Backend;
import dev.brace.runtime.BackendStatus;
import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.RateLimiterHandle;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.Kind;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The Actuator endpoint {@code brace}: {@code GET /actuator/brace} lists every instance the registry
 * has made, by kind and name, with its state, the settings it runs on and where each came from; {@code POST
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
   *     and {@code available}; for a breaker or limiter also its {@code backend}, whether it is
   *     {@code decidingLocally} now and, kept by a backend, whether that is {@code
   *     backendAvailable}), its {@code settings}, the {@code sources} that set each of them (as
   *     {@code registry.describe()} gives them) and the {@code sites} that use it; a keyed family's
   *     members by {@code name[key]}, with their state only
   */
  @ReadOperation
  public Map<String, Object> instances() {
    Map<String, Object> byKind = new LinkedHashMap<>();
    // Asked once per backend, first, so a store that went away while nothing called it shows below.
    Map<String, Optional<BackendStatus>> backends = new HashMap<>();
    registry.backends().forEach((name, backend) -> backends.put(name, backend.status()));
    registry.names().forEach((kind, names) -> {
      Map<String, Object> byName = new LinkedHashMap<>();
      for (String name : names) {
        Map<String, Object> instance = new LinkedHashMap<>();
        instance.put("kind", kind);
        state(kind, name, instance, backends);
        if (!name.endsWith("]")) {
          instance.put("settings", registry.settings(kind, name));
          provenance(kind, name, instance);
        }
        byName.put(name, instance);
      }
      byKind.put(kind, byName);
    });
    return byKind;
  }

  /**
   * Where each setting came from ({@code annotation at Catalog.item}, {@code environment BRACE_…},
   * {@code default}) and the sites that use the instance, as {@code registry.describe()} gives them.
   */
  private void provenance(String kind, String name, Map<String, Object> instance) {
    Description.Instance described;
    try {
      described = registry.describe(Kind.valueOf(kind.toUpperCase(Locale.ROOT)), name);
    } catch (IllegalArgumentException switchedOff) {
      return;
    }
    Map<String, String> sources = new LinkedHashMap<>();
    described.settings().forEach(setting -> sources.put(setting.attribute(), setting.source().toString()));
    instance.put("sources", sources);
    instance.put("sites", described.sites());
  }

  private void state(String kind, String name, Map<String, Object> instance, Map<String, Optional<BackendStatus>> backends) {
    try {
      switch (kind) {
        case "circuitbreaker":
          CircuitBreakerHandle breaker = registry.circuitBreaker(name);
          instance.put("state", breaker.state().name());
          breaker.retryAfter().ifPresent(wait -> instance.put("retryAfterMs", wait.toMillis()));
          decider(kind, name, breaker.backendAvailable(), instance, backends);
          break;
        case "ratelimit":
          RateLimiterHandle limiter = registry.rateLimiter(name);
          instance.put("availablePermits", limiter.availablePermits());
          decider(kind, name, limiter.backendAvailable(), instance, backends);
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
   * Where the instance decides now: in this JVM ({@code backend: local}, deciding locally), or in a
   * backend, locally only while that is unavailable and its fallback is local (with the fallback
   * {@code refuse} it refuses instead). A keyed member has its family's backend.
   */
  private void decider(String kind, String name, boolean available, Map<String, Object> instance,
      Map<String, Optional<BackendStatus>> backends) {
    int open = name.indexOf('[');
    String family = open > 0 && name.endsWith("]") ? name.substring(0, open) : name;
    String backend = registry.settings(kind, family).getOrDefault("backend", Backend.LOCAL);
    instance.put("backend", backend);
    if (backend.equals(Backend.LOCAL)) {
      instance.put("decidingLocally", true);
      return;
    }
    instance.put("backendAvailable", available);
    boolean fallsBackLocally = backends.getOrDefault(backend, Optional.empty()).map(BackendStatus::decidesLocally).orElse(false);
    instance.put("decidingLocally", !available && fallsBackLocally);
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
