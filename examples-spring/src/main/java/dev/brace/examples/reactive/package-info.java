/**
 * A Spring Boot application whose HTTP interface on {@code WebClient} returns {@code Mono}: Spring
 * makes the client from {@code @ImportHttpServices}, the Brace starter wraps it.
 */
package dev.brace.examples.reactive;
