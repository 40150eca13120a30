package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says the dependency may act on a call twice if it is sent twice: a payment, an order, an e-mail.
 * On a method, or on an interface for all of its methods (those it inherits included).
 *
 * <p>Brace then refuses, at compile time, every pattern that could send the call again after the
 * dependency may have acted on it: {@code @Hedge} is an error, and {@link Retry} is an error unless
 * every type in its {@link Retry#on()} proves the request was never sent — Brace's own refusals
 * ({@code CircuitOpenException}, {@code RateLimitedException}, {@code BulkheadFullException}),
 * {@code java.net.ConnectException}, {@code java.net.UnknownHostException}, {@code
 * java.net.NoRouteToHostException}, or a subtype of one of them — and it has no {@link
 * Retry#onResult()}, since a result means the dependency answered. Configuration cannot widen it:
 * a programmatic {@code on} beyond those types fails with a {@code ConfigurationException} when the
 * wrapper is created.
 *
 * <p>As every filter, the retry reads a failure through its causes: a client framework's exception
 * caused by a {@code ConnectException} (Spring's {@code ResourceAccessException}) was never sent
 * and is retried. A refusal counts only as the failure itself, never as the cause of another
 * exception.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NotIdempotent {}
