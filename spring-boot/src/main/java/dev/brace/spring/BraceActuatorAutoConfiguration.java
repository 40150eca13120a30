package dev.brace.spring;

import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Actuator for Brace, when the application has Actuator: the {@code brace} health indicator
 * (breaker states; see {@link BraceHealthIndicator}), one indicator per backend under {@code
 * braceBackends}, in a health group of their own (see {@link BraceBackendHealthIndicator}) and the {@code brace} endpoint (see {@link
 * BraceEndpoint}), which like every endpoint is exposed over HTTP only when {@code
 * management.endpoints.web.exposure.include} names it.
 */
@AutoConfiguration(after = BraceAutoConfiguration.class)
@ConditionalOnBean(Registry.class)
public class BraceActuatorAutoConfiguration {

  /** Created by Spring. */
  public BraceActuatorAutoConfiguration() {}

  /** The health indicator, when Spring Boot's health support is there. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("brace")
  public static class Health {
    /** Created by Spring. */
    public Health() {}

    /**
     * @param registry the registry
     * @param environment read for {@code brace.health.open-breaker-down}
     * @return the indicator, reported as {@code brace}
     */
    @Bean
    @ConditionalOnMissingBean(name = "braceHealthIndicator")
    public BraceHealthIndicator braceHealthIndicator(Registry registry, Environment environment) {
      return new BraceHealthIndicator(registry, environment.getProperty("brace.health.open-breaker-down", Boolean.class, false));
    }

    /**
     * One indicator per backend of the registry, by the name settings use: {@code
     * /actuator/health/brace-backends/braceBackends/redis}. Left out when the registry has no
     * backend.
     *
     * @param registry the registry whose backends are reported
     * @return the contributor, reported as {@code braceBackends}
     */
    @Bean
    @ConditionalOnMissingBean(name = "braceBackendsHealthContributor")
    public CompositeHealthContributor braceBackendsHealthContributor(Registry registry) {
      Map<String, HealthIndicator> indicators = new LinkedHashMap<>();
      registry.backends().forEach((name, backend) -> indicators.put(name, new BraceBackendHealthIndicator(backend)));
      return CompositeHealthContributor.fromMap(indicators);
    }

    /**
     * The backends' health in a group of its own, {@code /actuator/health/brace-backends}, and out
     * of the application's own health unless {@code brace.health.backend-down=true}. Static, as
     * Spring Boot applies it while it makes the health endpoint's groups.
     *
     * @param environment read for {@code brace.health.backend-down}
     * @return what adds the group
     */
    @Bean
    @ConditionalOnClass(HealthEndpointGroupsPostProcessor.class)
    public static HealthEndpointGroupsPostProcessor braceBackendsHealthGroup(Environment environment) {
      return new BraceBackendsHealthGroup(environment.getProperty("brace.health.backend-down", Boolean.class, false));
    }
  }

  /** The endpoint, when Actuator's endpoint support is there and the endpoint is enabled and exposed. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  @ConditionalOnAvailableEndpoint(BraceEndpoint.class)
  public static class Endpoints {
    /** Created by Spring. */
    public Endpoints() {}

    /**
     * @param registry the registry
     * @param reconfigurer what {@code POST /actuator/brace/reconfigure} runs
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    public BraceEndpoint braceEndpoint(Registry registry, BraceReconfigurer reconfigurer) {
      return new BraceEndpoint(registry, reconfigurer);
    }
  }

  /**
   * {@code POST /actuator/brace/chaos/{name}} (see {@link BraceChaosEndpointExtension}), only when the
   * application says {@code brace.chaos.actuator=true}: without it the operation does not exist.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  @ConditionalOnAvailableEndpoint(BraceEndpoint.class)
  @ConditionalOnProperty(name = "brace.chaos.actuator", havingValue = "true")
  public static class ChaosSwitch {
    /** Created by Spring. */
    public ChaosSwitch() {}

    /**
     * @param registry the registry
     * @param environment where switched settings are kept
     * @param reconfigurer applies them
     * @return the endpoint's fault injection switch
     */
    @Bean
    @ConditionalOnMissingBean
    public BraceChaosEndpointExtension braceChaosEndpointExtension(Registry registry, ConfigurableEnvironment environment,
        BraceReconfigurer reconfigurer) {
      return new BraceChaosEndpointExtension(registry, environment, reconfigurer);
    }
  }
}
