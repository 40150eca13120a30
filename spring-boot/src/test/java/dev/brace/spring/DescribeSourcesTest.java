package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brace.runtime.Description;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.Kind;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Where {@code describe()} and {@code /actuator/brace} say a setting came from, in an application
 * started by Spring Boot from its own YAML file: a property by the file, line and column Spring
 * read it from (not as a JVM system property, which it is not), an annotation on the interface as
 * on it, one on a method as at the method.
 */
class DescribeSourcesTest {
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(BraceAutoConfiguration.class)
  static class Application {
    @Bean
    Catalog catalog() {
      return id -> "item " + id;
    }
  }

  private static String source(Registry registry, Kind kind, String name, String attribute) {
    return registry.describe(kind, name).setting(attribute).map(Description.Setting::source).orElseThrow().toString();
  }

  @Test
  void aPropertyIsNamedByItsFileAndAnAnnotationByWhereItIsWritten() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
        .web(WebApplicationType.NONE)
        .properties("spring.config.name=describe-sources", "brace.retry.Catalog.item.delay=2ms")
        .run()) {
      Registry registry = context.getBean(Registry.class);
      assertThat(registry.settings("circuitbreaker", "catalog-api")).containsEntry("failureThreshold", "7");

      assertThat(source(registry, Kind.CIRCUITBREAKER, "catalog-api", "failureThreshold"))
          .isEqualTo("property brace.circuitbreaker.catalog-api.failure-threshold"
              + " from class path resource [describe-sources.yml] - 5:26");
      assertThat(source(registry, Kind.CIRCUITBREAKER, "catalog-api", "resetTimeout")).isEqualTo("annotation on Catalog");
      assertThat(source(registry, Kind.RETRY, "Catalog.item", "maxAttempts")).isEqualTo("annotation at Catalog.item");
      assertThat(source(registry, Kind.RETRY, "Catalog.item", "delay"))
          .isEqualTo("property brace.retry.Catalog.item.delay from defaultProperties");

      @SuppressWarnings("unchecked")
      Map<String, Object> breakers = (Map<String, Object>) new BraceEndpoint(registry, new BraceReconfigurer(registry,
          context.getEnvironment())).instances().get("circuitbreaker");
      assertThat(breakers.get("catalog-api").toString())
          .contains("failureThreshold=property brace.circuitbreaker.catalog-api.failure-threshold from class path resource"
              + " [describe-sources.yml] - 5:26")
          .contains("resetTimeout=annotation on Catalog");
    }
  }

  @Test
  void aJvmSystemPropertyIsStillOne() {
    System.setProperty("brace.circuitbreaker.catalog-api.minimum-calls", "12");
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
        .web(WebApplicationType.NONE).properties("spring.config.name=describe-sources").run()) {
      assertThat(source(context.getBean(Registry.class), Kind.CIRCUITBREAKER, "catalog-api", "minimumCalls"))
          .isEqualTo("system property brace.circuitbreaker.catalog-api.minimum-calls");
    } finally {
      System.clearProperty("brace.circuitbreaker.catalog-api.minimum-calls");
    }
  }
}
