package dev.brace.spring;

import dev.brace.redis.RedisBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis backend for Brace from the application's own Spring Data Redis connection, when {@code
 * brace-redis} and Lettuce's connection factory are both there: the registry gets it as {@code
 * redis} ({@code brace.redis.backend-name}), so {@code brace.ratelimit.recs-api.backend: redis} is
 * all an instance needs. It connects where and as the application's {@link
 * LettuceConnectionFactory} does (standalone, Sentinel or Cluster, with its TLS and credentials;
 * see {@link BraceRedisConnection}), with the options of {@code brace.redis.*}, and is closed with
 * the context. A {@link RedisBackend} bean of the application's own wins: the starter then makes
 * none, and gives the registry that one under the same name. {@code brace.redis.enabled=false}
 * turns all of it off.
 */
@AutoConfiguration(
    afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
    before = BraceAutoConfiguration.class)
@ConditionalOnClass({RedisBackend.class, LettuceConnectionFactory.class, DataRedisConnectionDetails.class})
@ConditionalOnProperty(name = "brace.redis.enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(BraceRedisProperties.class)
public class BraceRedisAutoConfiguration {

  /** Created by Spring. */
  public BraceRedisAutoConfiguration() {}

  /**
   * Gives the registry the application's one {@link RedisBackend} (the starter's, or its own),
   * before every other customizer, so one of the application's may still replace it by name.
   *
   * @param backends the backend beans
   * @param properties read for the name
   * @return the customizer
   */
  @Bean
  @Order(Ordered.HIGHEST_PRECEDENCE)
  public BraceRegistryCustomizer braceRedisBackendRegistration(ObjectProvider<RedisBackend> backends, BraceRedisProperties properties) {
    String name = properties.checkedBackendName();
    return builder -> backends.ifUnique(backend -> builder.backend(name, backend));
  }

  /** The starter's backend, unless the application has one of its own. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean(LettuceConnectionFactory.class)
  @ConditionalOnMissingBean(RedisBackend.class)
  public static class OwnBackend {
    /** Created by Spring. */
    public OwnBackend() {}

    /**
     * @param application the application's connection factory
     * @param details Spring Boot's connection details, if any
     * @param properties the backend's options
     * @return the backend's client and connection; closed with the context, before the
     *     application's connection factory and client resources
     */
    @Bean(destroyMethod = "close")
    BraceRedisConnection braceRedisConnection(
        LettuceConnectionFactory application, ObjectProvider<DataRedisConnectionDetails> details, BraceRedisProperties properties) {
      return BraceRedisConnection.open(application, details.getIfAvailable(), properties.options());
    }

    /**
     * @param connection what holds it
     * @return the backend; closed by its connection
     */
    @Bean(destroyMethod = "")
    public RedisBackend braceRedisBackend(BraceRedisConnection connection) {
      return connection.backend();
    }
  }
}
