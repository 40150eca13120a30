package dev.brace.benchmarks;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The meter registries every metrics row runs on, named by the rows' {@code registry} parameter:
 * Micrometer's in-memory one, and the Prometheus one a Spring Boot service with Actuator's
 * Prometheus endpoint records into. A timer sample costs a different amount on each.
 */
final class MeterRegistries {
  /** The values of the {@code registry} parameter, in the order the rows run. */
  static final String SIMPLE = "simple";

  static final String PROMETHEUS = "prometheus";

  private MeterRegistries() {}

  /**
   * @param name {@link #SIMPLE} or {@link #PROMETHEUS}
   * @return a new, empty registry of that kind, with its default configuration
   * @throws IllegalArgumentException for any other name (a mistyped {@code -p registry=…})
   */
  static MeterRegistry create(String name) {
    return switch (name) {
      case SIMPLE -> new SimpleMeterRegistry();
      case PROMETHEUS -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      default -> throw new IllegalArgumentException(
          "registry must be " + SIMPLE + " or " + PROMETHEUS + ", not \"" + name + "\"");
    };
  }
}
