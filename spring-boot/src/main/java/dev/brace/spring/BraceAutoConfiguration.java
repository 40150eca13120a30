package dev.brace.spring;

import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * The registry of a Spring Boot application: configured from Spring's {@code Environment}
 * ({@code brace.circuitbreaker.recs-api.failure-rate: 0.25} in application.yml, the {@code BRACE_…}
 * variables as without Spring), reconfigured when Spring Cloud reports the environment changed,
 * bound to Micrometer when there is a {@code MeterRegistry}, and put around every bean whose
 * interface has a generated wrapper ({@code brace.spring.auto-wrap=false} turns that off); a bean
 * whose interface carries Brace's annotations without a generated wrapper stops the start ({@code
 * brace.processor-missing=warn} makes it a warning).
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
public class BraceAutoConfiguration {

  /** Created by Spring. */
  public BraceAutoConfiguration() {}

  /**
   * @param environment Spring's environment, read for the two outer layers
   * @param customizers applied to the builder first, in order
   * @return the application's registry
   */
  @Bean
  @ConditionalOnMissingBean
  public Registry braceRegistry(ConfigurableEnvironment environment, ObjectProvider<BraceRegistryCustomizer> customizers) {
    SpringEnvironmentLayers layers = SpringEnvironmentLayers.read(environment);
    Registry.Builder builder = Registry.builder();
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return builder.environment(layers.environment()).systemProperties(layers.systemProperties())
        // Read again when asked: only for a key that is set, and a reconfiguration may have moved it.
        .keyOrigins(key -> SpringEnvironmentLayers.read(environment).origin(key))
        .build();
  }

  /**
   * @param registry the registry
   * @param environment Spring's environment
   * @return what reconfigures the registry from the environment
   */
  @Bean
  @ConditionalOnMissingBean
  public BraceReconfigurer braceReconfigurer(Registry registry, ConfigurableEnvironment environment) {
    return new BraceReconfigurer(registry, environment);
  }

  /**
   * Static, as a bean post-processor must be, so creating it does not create this configuration early.
   *
   * @param registry the registry the wrappers use, looked up when the first bean is wrapped
   * @param environment read for {@code brace.processor-missing} ({@code fail} or {@code warn})
   * @return the post-processor that wraps beans
   * @throws IllegalStateException when {@code brace.processor-missing} is neither {@code fail} nor {@code warn}
   */
  @Bean
  @ConditionalOnProperty(name = "brace.spring.auto-wrap", havingValue = "true", matchIfMissing = true)
  public static BeanPostProcessor braceAutoWrapper(ObjectProvider<Registry> registry, Environment environment) {
    return new AutoWrapper(registry, environment.getProperty(AutoWrapper.PROCESSOR_MISSING, "fail"));
  }

  /** Reconfigures on Spring Cloud's {@code EnvironmentChangeEvent}, when Spring Cloud is there. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.cloud.context.environment.EnvironmentChangeEvent")
  public static class CloudRefresh {
    /** Created by Spring. */
    public CloudRefresh() {}

    /**
     * @param reconfigurer what the listener runs
     * @return the listener
     */
    @Bean
    public ApplicationListener<?> braceCloudRefreshListener(BraceReconfigurer reconfigurer) {
      return new CloudRefreshListener(reconfigurer);
    }
  }

  /** Binds the registry's instances to Micrometer, when brace-micrometer and a {@code MeterRegistry} are there. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({BraceMetrics.class, MeterRegistry.class})
  public static class Metrics {
    /** Created by Spring. */
    public Metrics() {}

    /**
     * @param registry the registry
     * @param meters the application's meter registry
     * @return the binding; closed with the application context
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(MeterRegistry.class)
    public AutoCloseable braceMetrics(Registry registry, MeterRegistry meters) {
      return BraceMetrics.bind(registry, meters);
    }
  }
}
