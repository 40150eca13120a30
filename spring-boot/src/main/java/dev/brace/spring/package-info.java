/**
 * The Spring Boot starter: a {@link dev.brace.runtime.Registry} bean configured from Spring's
 * {@code Environment} and reconfigured when it changes, generated wrappers around beans, and
 * Actuator health, an endpoint and Micrometer metrics when the application has them, and, with
 * {@code brace-redis} and Spring Data Redis, a Redis backend from the application's own connection.
 */
package dev.brace.spring;
