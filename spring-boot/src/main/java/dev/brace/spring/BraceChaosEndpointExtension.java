package dev.brace.spring;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * {@code POST /actuator/brace/chaos/{name}} turns one fault injection on or off on a running
 * service, for a game day: a body of settings ({@code {"faultRate": 0.5, "latency": "2s",
 * "latencyRate": 0.1}}, any of {@code faultRate}, {@code fault}, {@code latency}, {@code
 * latencyRate}, {@code seed}) turns it on with them, {@code {"enabled": false}} turns it off.
 *
 * <p>Two settings of the application's own keep it safe: the operation exists only when {@code
 * brace.chaos.actuator=true} (the starter registers this extension only then, so without it the
 * path is not there at all), and it acts only while fault injection is switched on ({@code
 * brace.chaos.enabled=true}); a request then is refused with 409 and nothing changes. A service
 * whose configuration says neither cannot be made to fail over HTTP.
 *
 * <p>What a request sets lives in a property source of its own at the front of Spring's {@code
 * Environment} ({@value #SOURCE}), applied with {@link BraceReconfigurer} like any other change,
 * all or nothing: a refused setting answers 400 with the message naming it in the body, and the
 * source is put back as it was. It outlives environment refreshes, and ends with the process.
 */
@EndpointWebExtension(endpoint = BraceEndpoint.class)
public final class BraceChaosEndpointExtension {
  /** The name of the property source that holds what requests set. */
  static final String SOURCE = "braceChaosActuator";

  private static final String PREFIX = "brace.chaos.";
  /** The request cannot act in the service's present state: fault injection is switched off. */
  private static final int STATUS_CONFLICT = 409;

  private final Registry registry;
  private final ConfigurableEnvironment environment;
  private final BraceReconfigurer reconfigurer;

  /**
   * @param registry whose fault injections are switched
   * @param environment where the switched settings are kept
   * @param reconfigurer applies them
   * @throws NullPointerException when an argument is null
   */
  public BraceChaosEndpointExtension(Registry registry, ConfigurableEnvironment environment, BraceReconfigurer reconfigurer) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.environment = Objects.requireNonNull(environment, "environment");
    this.reconfigurer = Objects.requireNonNull(reconfigurer, "reconfigurer");
  }

  /**
   * @param kind must be {@code chaos}
   * @param name a call's name or an instance's name ({@code recs-api})
   * @param faultRate the fraction of attempts to fail, 0–1
   * @param fault the exception's class name
   * @param latency the latency to add, e.g. {@code 2s}
   * @param latencyRate the fraction of attempts to delay, 0–1
   * @param seed the seed of the random draws
   * @param enabled {@code false} to turn the injection off; otherwise it is turned on
   * @return 200 with the name, whether an injection of that name is {@code active} now (a name no
   *     call has, or rates of 0, leave it inactive) and its {@code settings}; 400 with the refusal's
   *     {@code message} for a refused setting (nothing changed then); 409 while fault injection is
   *     switched off
   * @throws InvalidEndpointRequestException (400) for another kind than {@code chaos}
   */
  @WriteOperation
  public synchronized WebEndpointResponse<Map<String, Object>> chaos(@Selector String kind, @Selector String name,
      @Nullable String faultRate, @Nullable String fault, @Nullable String latency, @Nullable String latencyRate,
      @Nullable String seed, @Nullable Boolean enabled) {
    if (!kind.equals("chaos")) {
      throw new InvalidEndpointRequestException("POST /actuator/brace/chaos/{name} is the only operation of two parts here",
          "unknown action");
    }
    if (!environment.getProperty("brace.chaos.enabled", Boolean.class, false)) {
      return new WebEndpointResponse<>(Map.of("name", name, "message",
          "fault injection is switched off (brace.chaos.enabled is not true); the actuator turns injections on and off"
              + " only where it is switched on"), STATUS_CONFLICT);
    }
    MapPropertySource source = source();
    Map<String, Object> before = new LinkedHashMap<>(source.getSource());
    String prefix = PREFIX + name + ".";
    source.getSource().keySet().removeIf(key -> key.startsWith(prefix));
    boolean on = !Boolean.FALSE.equals(enabled);
    source.getSource().put(prefix + "enabled", String.valueOf(on));
    if (on) {
      put(source, prefix + "fault-rate", faultRate);
      put(source, prefix + "fault", fault);
      put(source, prefix + "latency", latency);
      put(source, prefix + "latency-rate", latencyRate);
      put(source, prefix + "seed", seed);
    }
    try {
      reconfigurer.reconfigure();
    } catch (ConfigurationException refused) {
      source.getSource().clear();
      source.getSource().putAll(before);
      return new WebEndpointResponse<>(Map.of("name", name, "message", refused.getMessage()),
          WebEndpointResponse.STATUS_BAD_REQUEST);
    }
    return new WebEndpointResponse<>(state(name));
  }

  private static void put(MapPropertySource source, String key, @Nullable String value) {
    if (value != null) {
      source.getSource().put(key, value);
    }
  }

  private Map<String, Object> state(String name) {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("name", name);
    Description.Instance active = registry.describe().injections().stream()
        .filter(injection -> injection.name().equals(name)).findFirst().orElse(null);
    state.put("active", active != null);
    if (active != null) {
      state.put("settings", registry.settings("chaos", name));
      state.put("sites", active.sites());
    }
    return state;
  }

  /** The source of what requests set, first in the environment, made on the first request. */
  private MapPropertySource source() {
    MutablePropertySources sources = environment.getPropertySources();
    if (sources.get(SOURCE) instanceof MapPropertySource existing) {
      return existing;
    }
    MapPropertySource created = new MapPropertySource(SOURCE, new LinkedHashMap<>());
    sources.addFirst(created);
    return created;
  }
}
