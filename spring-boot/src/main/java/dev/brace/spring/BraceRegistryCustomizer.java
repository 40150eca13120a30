package dev.brace.spring;

import dev.brace.runtime.Registry;

/**
 * Adds to the registry the starter builds, before it is built: programmatic settings, backends, a
 * clock. Every bean of this type is applied, in Spring's order.
 *
 * <pre>{@code
 * @Bean
 * BraceRegistryCustomizer recsDefaults() {
 *   return builder -> builder.circuitBreaker("recs-api", b -> b.failureThreshold(10));
 * }
 * }</pre>
 */
@FunctionalInterface
public interface BraceRegistryCustomizer {
  /** @param builder the builder of the application's registry */
  void customize(Registry.Builder builder);
}
