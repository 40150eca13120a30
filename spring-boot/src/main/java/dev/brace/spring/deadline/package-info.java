/**
 * Deadlines across services: the header that carries one ({@code brace.deadline.header}), the
 * filters that open it for each incoming request (servlet and reactive), and the interceptor and
 * filter that send what is left of it on requests made through {@code RestClient} and {@code
 * WebClient}.
 */
package dev.brace.spring.deadline;
