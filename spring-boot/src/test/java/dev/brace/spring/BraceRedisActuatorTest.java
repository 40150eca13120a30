package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.redis.RedisServer;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

/**
 * The starter's Redis backend as an operator sees it — health, {@code /actuator/brace} — while its
 * real redis-server is stopped and started again, and a shared quota raised on two running
 * applications by a refresh and by the endpoint.
 */
class BraceRedisActuatorTest {
  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
          BraceRedisAutoConfiguration.class, BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class,
          HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
          HealthEndpointAutoConfiguration.class))
      .withUserConfiguration(BraceRedisAutoConfigurationTest.PartnerBean.class)
      .withPropertyValues(
          "brace.ratelimit.partner-quota.backend=redis",
          "brace.circuitbreaker.partner-api.backend=redis",
          "brace.redis.command-timeout=500ms",
          "brace.redis.recheck-interval=100ms",
          "management.endpoint.health.show-details=always",
          "management.endpoint.health.show-components=always",
          "management.endpoints.web.exposure.include=health, brace");

  /** @return what {@code read} gives once {@code until} holds, or after 10 s what it gives then */
  static <T> T eventually(Supplier<T> read, java.util.function.Predicate<T> until) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    T value = read.get();
    while (!until.test(value) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      value = read.get();
    }
    return value;
  }

  /** @return {@code /actuator/health/brace-backends/braceBackends/redis}: the component in the backends' group */
  private static HealthDescriptor backendHealth(AssertableApplicationContext context) {
    return context.getBean(HealthEndpoint.class).healthForPath("brace-backends", "braceBackends", "redis");
  }

  /** @return {@code /actuator/health/brace-backends}: what an operator's alert on the backends reads */
  private static HealthDescriptor backendsGroup(AssertableApplicationContext context) {
    return context.getBean(HealthEndpoint.class).healthForPath("brace-backends");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> endpointEntry(AssertableApplicationContext context, String kind, String name) {
    Map<String, Object> byKind = (Map<String, Object>) context.getBean(BraceEndpoint.class).instances().get(kind);
    return (Map<String, Object>) byKind.get(name);
  }

  @Test
  void healthShowsTheOutageWithoutFailingTheApplicationAndTheEndpointShowsWhoDecidesLocally() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      runner.withPropertyValues("spring.data.redis.port=" + server.port()).run(context -> {
        assertThat(context).hasNotFailed();
        assertThat(context.getBean(Partners.class).name("a")).isEqualTo("partner a");
        assertThat(backendHealth(context).getStatus()).isEqualTo(Status.UP);
        assertThat(endpointEntry(context, "ratelimit", "partner-quota"))
            .containsEntry("backend", "redis").containsEntry("backendAvailable", true).containsEntry("decidingLocally", false);

        assertThat(backendsGroup(context).getStatus()).isEqualTo(Status.UP);
        assertThat(((CompositeHealthDescriptor) context.getBean(HealthEndpoint.class).health()).getComponents())
            .as("the application's own health leaves the backends to their group").doesNotContainKey("braceBackends");

        server.stop();
        HealthDescriptor down = eventually(() -> backendHealth(context), health -> !health.getStatus().equals(Status.UP));
        assertThat(down.getStatus()).as("what operators' alerts key on").isEqualTo(Status.DOWN);
        Map<String, Object> details = ((IndicatedHealthDescriptor) down).getDetails();
        assertThat(details).containsEntry("fallback", "local").containsEntry("decidingLocally", true).containsKey("since");
        assertThat(java.time.Instant.parse((String) details.get("since"))).as("when the outage began")
            .isBeforeOrEqualTo(java.time.Instant.now());
        assertThat(details.get("outages").toString()).contains("since=").contains("cause=");
        assertThat(backendsGroup(context).getStatus()).as("the group answers 503").isEqualTo(Status.DOWN);
        HealthDescriptor application = context.getBean(HealthEndpoint.class).health();
        assertThat(application.getStatus()).as("the application is not down for it").isEqualTo(Status.UP);
        assertThat(((CompositeHealthDescriptor) application).getComponents()).containsKey("brace")
            .doesNotContainKey("braceBackends");
        assertThat(endpointEntry(context, "ratelimit", "partner-quota"))
            .containsEntry("backendAvailable", false).containsEntry("decidingLocally", true);
        assertThat(endpointEntry(context, "circuitbreaker", "partner-api")).containsEntry("decidingLocally", true);
        assertThat(context.getBean(Partners.class).name("b")).as("decided locally meanwhile").isEqualTo("partner b");

        server.restart();
        HealthDescriptor up = eventually(() -> backendHealth(context), health -> health.getStatus().equals(Status.UP));
        assertThat(up.getStatus()).isEqualTo(Status.UP);
        assertThat(endpointEntry(context, "ratelimit", "partner-quota")).containsEntry("decidingLocally", false);
      });
    }
  }

  /** A service must start while its Redis is down: it decides locally, and health says why. */
  @Test
  void theApplicationStartsWhileRedisIsDownAndDecidesLocally() throws Exception {
    int nothingListens = RedisServer.freePort();
    runner.withPropertyValues("spring.data.redis.port=" + nothingListens).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(Partners.class).name("a")).as("decided locally").isEqualTo("partner a");
      HealthDescriptor down = backendHealth(context);
      assertThat(down.getStatus()).isEqualTo(Status.DOWN);
      assertThat(context.getBean(HealthEndpoint.class).health().getStatus()).isEqualTo(Status.UP);
      assertThat(((IndicatedHealthDescriptor) down).getDetails().get("outages").toString()).contains(Integer.toString(nothingListens));
      assertThat(endpointEntry(context, "ratelimit", "partner-quota")).containsEntry("decidingLocally", true);
    });
  }

  @Test
  void whenAskedAnOutageMakesTheApplicationDown() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      runner.withPropertyValues("spring.data.redis.port=" + server.port(), "brace.health.backend-down=true").run(context -> {
        assertThat(context.getBean(HealthEndpoint.class).health().getStatus()).isEqualTo(Status.UP);
        server.stop();
        HealthDescriptor down = eventually(() -> backendHealth(context), health -> !health.getStatus().equals(Status.UP));
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        HealthDescriptor application = context.getBean(HealthEndpoint.class).health();
        assertThat(application.getStatus()).isEqualTo(Status.DOWN);
        assertThat(((CompositeHealthDescriptor) application).getComponents().get("braceBackends").getStatus())
            .isEqualTo(Status.DOWN);
        server.restart();
        assertThat(eventually(() -> context.getBean(HealthEndpoint.class).health(),
            health -> health.getStatus().equals(Status.UP)).getStatus()).isEqualTo(Status.UP);
      });
    }
  }

  @Test
  void withoutABackendThereIsNoBackendHealth() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class,
            HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
            HealthEndpointAutoConfiguration.class))
        .withPropertyValues("management.endpoint.health.show-components=always")
        .run(context -> {
          assertThat(context).hasNotFailed();
          CompositeHealthDescriptor health = (CompositeHealthDescriptor) context.getBean(HealthEndpoint.class).health();
          assertThat(health.getComponents()).containsKey("brace").doesNotContainKey("braceBackends");
        });
  }

  /** Raises the environment's permits of the partner quota, as a config server's new value would. */
  private static void permits(AssertableApplicationContext context, int permits) {
    context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("changed",
        Map.of("brace.ratelimit.partner-quota.permits", Integer.toString(permits))));
  }

  /**
   * Two applications on one Redis share the partner quota (4 an hour); each spends one. Raised to 8
   * while they run — one by Spring Cloud's refresh event, the other by {@code POST
   * /actuator/brace/reconfigure} — the bucket keeps its state (half of it spent, so half of the new
   * one is left) and both draw on it at once, with no restart.
   */
  @Test
  void aSharedQuotaRaisedOnTwoRunningApplicationsByARefreshAndByTheEndpoint() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      ApplicationContextRunner onServer = runner.withPropertyValues("spring.data.redis.port=" + server.port());
      onServer.run(first -> onServer.run(second -> {
        Partners one = first.getBean(Partners.class);
        Partners two = second.getBean(Partners.class);
        one.name("a");
        two.name("b");
        assertThat(first.getBean(Registry.class).rateLimiter("partner-quota").availablePermits()).as("one quota").isEqualTo(2);

        permits(first, 8);
        first.publishEvent(new EnvironmentChangeEvent(first, Set.of("brace.ratelimit.partner-quota.permits")));
        permits(second, 8);
        Map<String, Object> reconfigured = second.getBean(BraceEndpoint.class).reconfigure("reconfigure");
        assertThat(reconfigured).containsEntry("reconfigured", true);

        for (AssertableApplicationContext context : java.util.List.of(first, second)) {
          assertThat(context.getBean(Registry.class).settings("ratelimit", "partner-quota")).containsEntry("permits", "8");
        }
        assertThat(second.getBean(Registry.class).rateLimiter("partner-quota").availablePermits()).isEqualTo(4);
        one.name("c");
        two.name("d");
        one.name("e");
        two.name("f");
        assertThatThrownBy(() -> one.name("g")).isInstanceOf(RateLimitedException.class);
        assertThatThrownBy(() -> two.name("h")).isInstanceOf(RateLimitedException.class);
      }));
    }
  }
}
