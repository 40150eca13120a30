/**
 * The Brace annotations. Put them on the methods of a client interface (or on the interface,
 * as defaults for all of its methods); the Brace annotation processor generates a {@code
 * Resilient<Interface>} wrapper that applies them in one fixed order, outermost first:
 *
 * <pre>Fallback → StaleIfError → Retry → Hedge → CircuitBreaker → RateLimit → Bulkhead → Timeout → call</pre>
 *
 * <p>Durations are strings: a decimal number followed by one of the units {@code ns us ms s m h}
 * ({@code "250ms"}, {@code "1.5s"}), or an ISO-8601 duration ({@code "PT1S"}). Anything else is a
 * compile error.
 *
 * <p>Breakers, rate limiters and bulkheads are <em>system-scoped</em>: name them after the
 * dependency they protect and every call site with that name shares one instance. Retries,
 * hedges, timeouts, stale answers and fallbacks are <em>call-scoped</em>: by default they are named
 * after the call ({@code Interface.method}).
 */
package dev.brace;
