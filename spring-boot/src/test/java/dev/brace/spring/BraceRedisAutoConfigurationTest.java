package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brace.redis.RedisBackend;
import dev.brace.redis.RedisBackendOptions;
import dev.brace.redis.RedisCluster;
import dev.brace.redis.RedisServer;
import dev.brace.redis.RedisTls;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's Redis backend, made from the application's own Spring Data Redis settings, against
 * real redis-servers on loopback (a password, TLS, a Sentinel, a Cluster), in contexts started by
 * Spring Boot's test runner.
 */
class BraceRedisAutoConfigurationTest {
  /** Puts the partner API's quota and circuit in the backend, as an application.yml would. */
  private static final String[] SHARED = {
      "brace.ratelimit.partner-quota.backend=redis",
      "brace.circuitbreaker.partner-api.backend=redis",
      // Generous: a loaded two-core machine must not make an outage no test made.
      "brace.redis.command-timeout=2s"};

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SslAutoConfiguration.class,
          BraceRedisAutoConfiguration.class, BraceAutoConfiguration.class, BraceActuatorAutoConfiguration.class))
      .withUserConfiguration(PartnerBean.class);

  /** A plain implementation: the starter wraps it in the generated ResilientPartners. */
  @Configuration(proxyBeanMethods = false)
  static class PartnerBean {
    @Bean
    Partners partners() {
      return id -> "partner " + id;
    }
  }

  /** Four calls take the quota of four per hour; the fifth is refused: the quota is the one in Redis. */
  private static void spendTheQuota(AssertableApplicationContext context) throws Exception {
    Partners partners = context.getBean(Partners.class);
    for (int i = 0; i < 4; i++) {
      assertThat(partners.name("p" + i)).isEqualTo("partner p" + i);
    }
    assertThatThrownBy(() -> partners.name("p4")).isInstanceOf(RateLimitedException.class);
  }

  private static boolean eventually(BooleanSupplier answer) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (answer.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @Test
  void theBackendConnectsWithTheApplicationsPasswordAndClientNameAndClosesWithTheContext() throws Exception {
    try (RedisServer server = RedisServer.start(List.of("--requirepass", "s3cret"))) {
      runner.withPropertyValues(SHARED)
          .withPropertyValues(
              "spring.data.redis.host=127.0.0.1",
              "spring.data.redis.port=" + server.port(),
              "spring.data.redis.password=s3cret",
              "spring.data.redis.client-name=shop-service",
              "brace.redis.key-prefix=shop:")
          .run(context -> {
            assertThat(context).hasNotFailed();
            Registry registry = context.getBean(Registry.class);
            assertThat(registry.backends()).containsOnlyKeys("redis");
            assertThat(registry.backends().get("redis")).isSameAs(context.getBean(RedisBackend.class));
            spendTheQuota(context);
            assertThat(server.command("GET", "shop:ratelimit:partner-quota")).as("the bucket, under brace.redis.key-prefix").isNotNull();
            assertThat(server.clientIds("shop-service")).as("connected with the application's client name").hasSize(1);
            assertThat(registry.rateLimiter("partner-quota").backendAvailable()).isTrue();
          });
      assertThat(eventually(() -> server.clientIds("shop-service").isEmpty())).as("closed with the context").isTrue();
    }
  }

  @Test
  void overTlsWithTheApplicationsSslBundle() throws Exception {
    RedisTls tls = RedisTls.create();
    try (RedisServer server = RedisServer.startWithTls(tls, List.of())) {
      runner.withPropertyValues(SHARED)
          .withPropertyValues(
              "spring.data.redis.host=127.0.0.1",
              "spring.data.redis.port=" + server.tlsPort(),
              "spring.data.redis.ssl.enabled=true",
              "spring.data.redis.ssl.bundle=redis-ca",
              "spring.ssl.bundle.pem.redis-ca.truststore.certificate=file:" + tls.certificate())
          .run(context -> {
            assertThat(context).hasNotFailed();
            spendTheQuota(context);
            assertThat(server.command("GET", "brace:ratelimit:partner-quota")).isNotNull();
            assertThat(context.getBean(RedisBackend.class).status().orElseThrow().available()).isTrue();
          });
    }
  }

  @Test
  void throughASentinelToItsPrimary() throws Exception {
    try (RedisServer primary = RedisServer.start();
        RedisServer sentinel = RedisServer.startSentinel(primary, "shop-primary")) {
      runner.withPropertyValues(SHARED)
          .withPropertyValues(
              "spring.data.redis.sentinel.master=shop-primary",
              "spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinel.port())
          .run(context -> {
            assertThat(context).hasNotFailed();
            spendTheQuota(context);
            assertThat(primary.command("GET", "brace:ratelimit:partner-quota")).as("on the primary the sentinel named").isNotNull();
          });
    }
  }

  @Test
  void onTheApplicationsClusterEachKeyOnItsNode() throws Exception {
    try (RedisCluster cluster = RedisCluster.start(3)) {
      String nodes = cluster.nodes().stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
      runner.withPropertyValues(SHARED)
          .withPropertyValues("spring.data.redis.cluster.nodes=" + nodes)
          .run(context -> {
            assertThat(context).hasNotFailed();
            spendTheQuota(context);
            RedisServer node = cluster.nodeOf("brace:ratelimit:partner-quota");
            assertThat(node.command("GET", "brace:ratelimit:partner-quota")).isNotNull();
            assertThat(context.getBean(RedisBackend.class).status().orElseThrow().available()).isTrue();
          });
    }
  }

  /** The application's own backend on a Redis of its own, as the guide shows it. */
  @Configuration(proxyBeanMethods = false)
  static class OwnBackend {
    @Bean(destroyMethod = "shutdown")
    RedisClient fleetRedisClient(org.springframework.core.env.Environment environment) {
      return RedisClient.create(environment.getRequiredProperty("own.redis.uri"));
    }

    @Bean
    RedisBackend fleetRedis(RedisClient fleetRedisClient) {
      return RedisBackend.create(fleetRedisClient, RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(2)));
    }
  }

  @Test
  void aBackendBeanOfTheApplicationsOwnWinsAndJoinsTheRegistryUnderTheName() throws Exception {
    try (RedisServer own = RedisServer.start();
        RedisServer applications = RedisServer.start()) {
      runner.withUserConfiguration(OwnBackend.class)
          .withPropertyValues(SHARED)
          .withPropertyValues("own.redis.uri=" + own.uri(), "spring.data.redis.port=" + applications.port())
          .run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(RedisBackend.class).doesNotHaveBean(BraceRedisConnection.class);
            assertThat(context.getBean(Registry.class).backends().get("redis")).isSameAs(context.getBean("fleetRedis"));
            spendTheQuota(context);
            assertThat(own.command("GET", "brace:ratelimit:partner-quota")).isNotNull();
            assertThat(applications.command("GET", "brace:ratelimit:partner-quota")).as("not the application's Redis").isNull();
          });
    }
  }

  @Test
  void aNameOfItsOwn() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      runner.withPropertyValues("spring.data.redis.port=" + server.port(), "brace.redis.backend-name=fleet",
              "brace.ratelimit.partner-quota.backend=fleet")
          .run(context -> {
            assertThat(context.getBean(Registry.class).backends()).containsOnlyKeys("fleet");
            spendTheQuota(context);
            assertThat(server.command("GET", "brace:ratelimit:partner-quota")).isNotNull();
          });
    }
  }

  @Test
  void offWhenSwitchedOffOrWhenSomethingIsMissing() {
    runner.withPropertyValues("brace.redis.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(RedisBackend.class);
      assertThat(context.getBean(Registry.class).backends()).isEmpty();
    });
    runner.withClassLoader(new FilteredClassLoader(RedisBackend.class)).run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean("braceRedisBackend");
      assertThat(context.getBean(Registry.class).backends()).isEmpty();
    });
    // Spring Data Redis there, but no connection factory configured: nothing to derive a backend from.
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BraceRedisAutoConfiguration.class, BraceAutoConfiguration.class))
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(RedisBackend.class);
          assertThat(context.getBean(Registry.class).backends()).isEmpty();
        });
  }

  /**
   * brace.redis.* (and their BRACE_REDIS_… forms) are the starter's own, not instance settings: a
   * strict registry, which refuses every key that configures nothing, starts with them.
   */
  @Test
  void theStartersKeysInEitherFormAreBoundAndNeverTakenForInstanceSettings() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BraceRedisAutoConfiguration.class, BraceAutoConfiguration.class))
        .withBean(BraceRegistryCustomizer.class, () -> Registry.Builder::strictConfiguration)
        .withInitializer(context -> context.getEnvironment().getPropertySources().replace(
            org.springframework.core.env.StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new org.springframework.core.env.SystemEnvironmentPropertySource(
                org.springframework.core.env.StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                java.util.Map.of("BRACE_REDIS_RECHECK_INTERVAL", "2s", "BRACE_HEALTH_BACKEND_DOWN", "true"))))
        .withPropertyValues("brace.redis.command-timeout=150ms", "brace.redis.when-unavailable=refuse")
        .run(context -> {
          assertThat(context).hasNotFailed();
          BraceRedisProperties properties = context.getBean(BraceRedisProperties.class);
          assertThat(properties.options()).isEqualTo(RedisBackendOptions.defaults()
              .withCommandTimeout(Duration.ofMillis(150))
              .withRecheckInterval(Duration.ofSeconds(2))
              .withWhenUnavailable(RedisBackendOptions.WhenUnavailable.REFUSE));
        });
  }

  @Test
  void anOptionOutOfRangeStopsTheStartNamingItsKey() {
    runner.withPropertyValues("brace.redis.command-timeout=0s").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageContaining("[brace:redis-property] brace.redis.command-timeout = PT0S is out of range"));
    runner.withPropertyValues("brace.redis.backend-name=local").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("[brace:redis-property] brace.redis.backend-name = local"));
  }

  @Test
  void aStaticMasterReplicaSetupIsRefusedWithWhatToDoInstead() {
    runner.withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:6379,127.0.0.1:6380").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageContaining("[brace:redis-topology]").hasMessageContaining("brace.redis.enabled=false"));
  }
}
