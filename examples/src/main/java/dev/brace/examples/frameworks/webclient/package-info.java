/**
 * A Spring HTTP interface on {@code WebClient} whose {@code Mono} and {@code Flux} methods carry
 * nothing but Brace annotations beside Spring's, wrapped by hand ({@code ResilientWebClientItemsApi.wrap});
 * a Spring Boot application gets it wrapped by the starter (examples-spring).
 */
package dev.brace.examples.frameworks.webclient;
