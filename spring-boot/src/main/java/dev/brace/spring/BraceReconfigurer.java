package dev.brace.spring;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Registry;
import java.util.Objects;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Re-reads Spring's {@code Environment} and hands its Brace keys to {@link
 * Registry#reconfigure}. The starter calls it on Spring Cloud's {@code EnvironmentChangeEvent}
 * (after {@code /actuator/refresh}, a config server push, a Kubernetes config map change) and on
 * {@code POST /actuator/brace/reconfigure}; an application that changes its environment another
 * way calls {@link #reconfigure()} itself.
 */
public final class BraceReconfigurer {
  private final Registry registry;
  private final ConfigurableEnvironment environment;

  /**
   * @param registry the registry to reconfigure
   * @param environment where its settings come from
   * @throws NullPointerException when an argument is null
   */
  public BraceReconfigurer(Registry registry, ConfigurableEnvironment environment) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  /**
   * Applies the environment's Brace settings as they are now to the registry's live instances,
   * keeping their state, all or nothing.
   *
   * @throws ConfigurationException naming every refused setting; nothing has changed then
   */
  public void reconfigure() {
    SpringEnvironmentLayers layers = SpringEnvironmentLayers.read(environment);
    registry.reconfigure(layers.environment(), layers.systemProperties());
  }
}
