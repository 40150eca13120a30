package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The starter's auto-configuration, in application contexts started by Spring Boot's test runner. */
class BraceAutoConfigurationTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class));

  /** A plain implementation that fails, counting its calls. */
  static final class FailingCatalog implements Catalog {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String item(String id) throws IOException {
      calls.incrementAndGet();
      throw new IOException("down");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class PlainBean {
    /** The implementation behind the last context's bean: the bean itself is its wrapper. */
    static FailingCatalog latest;

    @Bean
    FailingCatalog catalog() {
      latest = new FailingCatalog();
      return latest;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class WrappedByHand {
    static final FailingCatalog DELEGATE = new FailingCatalog();

    @Bean
    Catalog catalog(Registry registry) {
      return ResilientCatalog.wrap(DELEGATE, registry);
    }
  }

  /** Implements both annotated interfaces. */
  static final class Both implements Catalog, Pricing {
    @Override
    public String item(String id) {
      return id;
    }

    @Override
    public long price(String id) {
      return 1;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class TwoInterfaces {
    @Bean
    Both both() {
      return new Both();
    }
  }

  /** One call, two failed attempts: the breaker's threshold of two opens it. */
  private static void failTwice(Catalog catalog) {
    assertThatThrownBy(() -> catalog.item("a")).isInstanceOf(IOException.class);
  }

  @Test
  void applicationPropertiesConfigureInstancesInAnyRelaxedForm() {
    runner.withUserConfiguration(PlainBean.class)
        .withPropertyValues(
            "brace.circuitbreaker.catalog-api.failure-rate=0.25",
            "brace.circuitBreaker.catalog-api.minimumCalls=4",
            "brace.retry.Catalog.item.max_attempts=3")
        .run(context -> {
          Registry registry = context.getBean(Registry.class);
          assertThatThrownBy(() -> context.getBean(Catalog.class).item("a")).isInstanceOf(IOException.class);
          assertThat(registry.settings("circuitbreaker", "catalog-api"))
              .containsEntry("failureRate", "0.25").containsEntry("minimumCalls", "4");
          assertThat(PlainBean.latest.calls.get()).as("three attempts").isEqualTo(3);
        });
  }

  @Test
  void anEnvironmentVariableOverridesApplicationYmlAsSpringsPrecedenceSays() {
    runner.withUserConfiguration(PlainBean.class)
        .withInitializer(context -> {
          var sources = context.getEnvironment().getPropertySources();
          sources.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
              StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
              Map.of("BRACE_CIRCUITBREAKER_CATALOG_API_FAILURE_THRESHOLD", "9",
                  "BRACE_CIRCUITBREAKER_CATALOG_API_MINIMUM_CALLS", "30")));
          // Where application.yml lands: below the environment variables.
          sources.addLast(new MapPropertySource("Config resource 'application.yml'",
              Map.of("brace.circuitbreaker.catalog-api.failure-threshold", 4, "brace.circuitbreaker.catalog-api.window", "5s")));
        })
        // Above the environment variables, as a command-line argument is.
        .withPropertyValues("brace.circuitbreaker.catalog-api.minimum-calls=40")
        .run(context -> {
          assertThatThrownBy(() -> context.getBean(Catalog.class).item("a")).isInstanceOf(IOException.class);
          assertThat(context.getBean(Registry.class).settings("circuitbreaker", "catalog-api"))
              .containsEntry("failureThreshold", "9")
              .containsEntry("window", "5s")
              .containsEntry("minimumCalls", "40");
        });
  }

  @Test
  void aBeanOfAnAnnotatedInterfaceIsWrappedAndInjectedByItsInterface() {
    runner.withUserConfiguration(PlainBean.class).run(context -> {
      Catalog catalog = context.getBean(Catalog.class);
      assertThat(catalog).isInstanceOf(ResilientCatalog.class);
      failTwice(catalog);
      assertThat(context.getBean(Registry.class).circuitBreaker("catalog-api").state()).isEqualTo(CircuitState.OPEN);
    });
  }

  @Test
  void aBeanWrappedByHandIsNotWrappedAgain() {
    WrappedByHand.DELEGATE.calls.set(0);
    runner.withUserConfiguration(WrappedByHand.class).run(context -> {
      assertThatThrownBy(() -> context.getBean(Catalog.class).item("a")).isInstanceOf(IOException.class);
      assertThat(WrappedByHand.DELEGATE.calls.get()).as("two attempts: one retry, not a retry of retries").isEqualTo(2);
    });
  }

  @Test
  void autoWrapCanBeSwitchedOff() {
    runner.withUserConfiguration(PlainBean.class).withPropertyValues("brace.spring.auto-wrap=false")
        .run(context -> assertThat(context.getBean(Catalog.class)).isInstanceOf(FailingCatalog.class));
  }

  @Test
  void aBeanImplementingTwoWrappableInterfacesFailsTheStartNamingBoth() {
    runner.withUserConfiguration(TwoInterfaces.class).run(context -> assertThat(context).getFailure()
        .hasMessageContaining("[brace:auto-wrap-ambiguous] bean 'both'")
        .hasMessageContaining(Catalog.class.getName()).hasMessageContaining(Pricing.class.getName()));
  }

  /** A typo in application.yml: a property the breaker does not have. */
  private static final String TYPO = "brace.circuitbreaker.catalog-api.failure-treshold=3";

  @Test
  void strictConfigurationInApplicationYmlMakesATypoStopTheStart() {
    runner.withUserConfiguration(PlainBean.class).withPropertyValues(TYPO, "brace.strict-configuration=true")
        .run(context -> assertThat(context).getFailure().rootCause()
            .hasMessageStartingWith("[brace:unknown-keys] Brace configuration keys that configure nothing:")
            .hasMessageContaining("failure-treshold"));
    runner.withUserConfiguration(PlainBean.class).withPropertyValues(TYPO, "brace.strictConfiguration=true")
        .run(context -> assertThat(context).as("in Spring's relaxed form").hasFailed());
  }

  @Test
  void strictConfigurationAsAnEnvironmentVariableMakesATypoStopTheStart() {
    runner.withUserConfiguration(PlainBean.class).withPropertyValues(TYPO)
        .withInitializer(context -> context.getEnvironment().getPropertySources().replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("BRACE_STRICT_CONFIGURATION", "true"))))
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageStartingWith("[brace:unknown-keys]"));
  }

  @Test
  void withoutStrictConfigurationATypoStartsWithAWarningThatSaysHowToMakeItAnError() {
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.brace");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> warnings =
        new ch.qos.logback.core.read.ListAppender<>();
    warnings.start();
    logger.addAppender(warnings);
    try {
      runner.withUserConfiguration(PlainBean.class).withPropertyValues(TYPO).run(context -> {
        assertThat(context).hasNotFailed();
        assertThat(warnings.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
            .anyMatch(line -> line.startsWith("[brace:unknown-keys]") && line.contains("failure-treshold")
                && line.endsWith("(brace.strict-configuration=true or BRACE_STRICT_CONFIGURATION=true makes them an error)"));
      });
    } finally {
      logger.detachAppender(warnings);
    }
  }

  private static final String THRESHOLD = "brace.circuitbreaker.catalog-api.failure-threshold";

  /** A context whose environment has a property source the test changes, as a refresh would, with the breaker opened. */
  private void withRefreshable(Map<String, Object> refreshable, ContextConsumer<AssertableApplicationContext> test) {
    runner.withUserConfiguration(PlainBean.class)
        .withInitializer(context -> context.getEnvironment().getPropertySources()
            .addFirst(new MapPropertySource("refreshable", refreshable)))
        .run(context -> {
          failTwice(context.getBean(Catalog.class));
          test.accept(context);
        });
  }

  /** Tells the starter, as Spring Cloud does after a refresh, that the breaker's threshold changed. */
  private static void announce(AssertableApplicationContext context) {
    context.publishEvent(new EnvironmentChangeEvent(context, Set.of(THRESHOLD)));
  }

  @Test
  void anEnvironmentChangeReconfiguresAndTheBreakerKeepsItsState() {
    Map<String, Object> refreshable = new HashMap<>(Map.of(THRESHOLD, "2"));
    withRefreshable(refreshable, context -> {
      Registry registry = context.getBean(Registry.class);
      assertThat(registry.circuitBreaker("catalog-api").state()).isEqualTo(CircuitState.OPEN);

      refreshable.put(THRESHOLD, "6");
      announce(context);

      assertThat(registry.settings("circuitbreaker", "catalog-api")).containsEntry("failureThreshold", "6");
      assertThat(registry.circuitBreaker("catalog-api").state()).isEqualTo(CircuitState.OPEN);
    });
  }

  @Test
  void aRefusedChangeLeavesTheSettingsAsTheyWere() {
    Map<String, Object> refreshable = new HashMap<>();
    withRefreshable(refreshable, context -> {
      Registry registry = context.getBean(Registry.class);
      refreshable.put(THRESHOLD, "none");
      announce(context);
      assertThat(registry.settings("circuitbreaker", "catalog-api")).containsEntry("failureThreshold", "2");
      assertThatThrownBy(() -> context.getBean(BraceReconfigurer.class).reconfigure())
          .hasMessageContaining("brace.circuitbreaker.catalog-api.failure-threshold=none");
    });
  }

  @Test
  void healthReportsEachBreakerAndIsOutOfServiceOnlyWhenAskedTo() {
    runner.withUserConfiguration(PlainBean.class).run(context -> {
      failTwice(context.getBean(Catalog.class));
      var health = context.getBean(BraceHealthIndicator.class).health();
      assertThat(health.getStatus().getCode()).isEqualTo("UP");
      assertThat(health.getDetails().toString()).contains("catalog-api={state=OPEN");
    });
    runner.withUserConfiguration(PlainBean.class).withPropertyValues("brace.health.open-breaker-down=true").run(context -> {
      var indicator = context.getBean(BraceHealthIndicator.class);
      assertThat(indicator.health().getStatus().getCode()).isEqualTo("UP");
      failTwice(context.getBean(Catalog.class));
      assertThat(indicator.health().getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
    });
  }

  @Test
  void theEndpointListsInstancesAndResetsABreaker() {
    runner.withUserConfiguration(PlainBean.class)
        .withPropertyValues("management.endpoints.web.exposure.include=brace")
        .run(context -> {
          failTwice(context.getBean(Catalog.class));
          BraceEndpoint endpoint = context.getBean(BraceEndpoint.class);
          Map<String, Object> instances = endpoint.instances();
          assertThat(instances).containsKeys("circuitbreaker", "retry");
          assertThat(instances.get("circuitbreaker").toString())
              .contains("catalog-api={kind=circuitbreaker, state=OPEN").contains("failureThreshold=2");
          @SuppressWarnings("unchecked")
          Map<String, Object> breaker = (Map<String, Object>) ((Map<String, Object>) instances.get("circuitbreaker")).get("catalog-api");
          @SuppressWarnings("unchecked")
          Map<String, String> sources = (Map<String, String>) breaker.get("sources");
          assertThat(sources.get("failureThreshold")).as("written on the interface").isEqualTo("annotation on Catalog");
          assertThat(sources).containsEntry("windowBuckets", "default");
          assertThat(breaker.get("sites").toString()).contains("Catalog.item");
          assertThat(endpoint.reset("circuitbreaker", "catalog-api", "reset")).containsEntry("state", "CLOSED");
          assertThat(context.getBean(Registry.class).circuitBreaker("catalog-api").state()).isEqualTo(CircuitState.CLOSED);
        });
  }

  @Test
  void metricsAreBoundWhenThereIsAMeterRegistry() {
    runner.withUserConfiguration(PlainBean.class)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> {
          failTwice(context.getBean(Catalog.class));
          assertThat(context.getBean(MeterRegistry.class).find("brace.circuitbreaker.state").gauge()).isNotNull();
        });
    runner.withUserConfiguration(PlainBean.class)
        .run(context -> assertThat(context).doesNotHaveBean("braceMetrics"));
  }

  @Test
  void customizersAddProgrammaticSettings() {
    runner.withUserConfiguration(PlainBean.class)
        .withBean(BraceRegistryCustomizer.class, () -> builder -> builder.circuitBreaker("catalog-api", b -> b.failureThreshold(8)))
        .run(context -> {
          assertThatThrownBy(() -> context.getBean(Catalog.class).item("a")).isInstanceOf(IOException.class);
          assertThat(context.getBean(Registry.class).settings("circuitbreaker", "catalog-api")).containsEntry("failureThreshold", "8");
        });
  }
}
