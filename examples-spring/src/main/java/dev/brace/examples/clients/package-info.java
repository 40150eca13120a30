/**
 * Client interfaces that Spring makes, wrapped by the Brace starter with nothing but Brace's
 * annotations on them: a Spring HTTP interface registered with {@code @ImportHttpServices} (on the
 * {@code RestClient} Spring Boot configures), and a Spring Cloud OpenFeign {@code @FeignClient}.
 */
package dev.brace.examples.clients;
