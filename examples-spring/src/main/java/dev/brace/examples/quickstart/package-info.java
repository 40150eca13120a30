/**
 * The Spring Boot quick start of the guide, as a newcomer copies it: one HTTP interface that Spring
 * makes from {@code @ImportHttpServices}, Brace's annotations on it, a controller that injects it,
 * and Actuator exposing health, Brace and Prometheus. The page shows these files as they are.
 */
package dev.brace.examples.quickstart;
