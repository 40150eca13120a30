package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.redis.RedisServer;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/**
 * An application with the starter, the Redis backend on a real redis-server, Actuator and a meter
 * registry, as a user writes one. The build runs it twice: as it is, and processed ahead of time
 * ({@code spring-boot-maven-plugin}'s {@code process-test-aot}, then this class alone with {@code
 * -Dspring.aot.enabled=true}), where its bean definitions are the generated code. Wrapped beans,
 * properties, the endpoint, health, metrics and Redis behave alike in both.
 */
@SpringBootTest(classes = AheadOfTimeApplicationTest.Application.class, properties = {
    "brace.ratelimit.partner-quota.backend=redis",
    "brace.circuitbreaker.partner-api.backend=redis",
    "brace.circuitbreaker.partner-api.failure-threshold=5",
    "brace.redis.command-timeout=500ms",
    "brace.redis.recheck-interval=100ms",
    "brace.redis.key-prefix=aot:",
    "management.endpoint.health.show-details=always",
    "management.endpoint.health.show-components=always",
    "management.endpoints.web.exposure.include=health, brace"})
class AheadOfTimeApplicationTest {
  private static RedisServer server;

  @SpringBootConfiguration(proxyBeanMethods = false)
  @ImportAutoConfiguration({DataRedisAutoConfiguration.class, BraceRedisAutoConfiguration.class,
      BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class, EndpointAutoConfiguration.class,
      HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
      HealthEndpointAutoConfiguration.class})
  static class Application {
    @Bean
    Partners partners() {
      return id -> "partner " + id;
    }

    @Bean
    MeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  /** The server's port reaches Spring as a system property: read at run time, as ahead of time it must be. */
  @BeforeAll
  static void redis() {
    server = RedisServer.start();
    System.setProperty("spring.data.redis.port", Integer.toString(server.port()));
  }

  @AfterAll
  static void stopRedis() {
    System.clearProperty("spring.data.redis.port");
    server.close();
  }

  @Autowired
  Partners partners;

  @Autowired
  Registry registry;

  @Autowired
  BraceEndpoint endpoint;

  @Autowired
  HealthEndpoint health;

  @Autowired
  MeterRegistry meters;

  @Test
  void theStarterBehavesAsOnTheJvm() throws Exception {
    assertThat(AotDetector.useGeneratedArtifacts()).as("started from the code generated ahead of time")
        .isEqualTo(Boolean.getBoolean("brace.test.ahead-of-time"));

    assertThat(partners).as("wrapped").isInstanceOf(ResilientPartners.class);
    assertThat(registry.settings("circuitbreaker", "partner-api")).as("a property").containsEntry("failureThreshold", "5");
    for (int i = 0; i < 4; i++) {
      assertThat(partners.name("p" + i)).isEqualTo("partner p" + i);
    }
    assertThatThrownBy(() -> partners.name("p4")).as("the quota of four an hour").isInstanceOf(RateLimitedException.class);
    assertThat(server.command("EXISTS", "aot:ratelimit:partner-quota")).as("kept in Redis").isEqualTo(1L);

    @SuppressWarnings("unchecked")
    Map<String, Object> breakers = (Map<String, Object>) endpoint.instances().get("circuitbreaker");
    assertThat(breakers.get("partner-api").toString()).contains("backend=redis").contains("failureThreshold=5");
    assertThat(meters.find("brace.circuitbreaker.state").gauge()).as("metrics bound").isNotNull();

    assertThat(health.healthForPath("brace-backends", "braceBackends", "redis").getStatus()).isEqualTo(Status.UP);
    server.stop();
    try {
      HealthDescriptor down = BraceRedisActuatorTest.eventually(
          () -> health.healthForPath("brace-backends", "braceBackends", "redis"),
          descriptor -> descriptor.getStatus().equals(Status.DOWN));
      assertThat(down.getStatus()).isEqualTo(Status.DOWN);
      HealthDescriptor application = health.health();
      assertThat(application.getStatus()).isEqualTo(Status.UP);
      assertThat(((CompositeHealthDescriptor) application).getComponents()).containsKey("brace").doesNotContainKey("braceBackends");
    } finally {
      server.restart();
    }
  }
}
