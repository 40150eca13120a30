/**
 * What a state {@link dev.brace.runtime.Backend} implements and is given: the breaker and limiter
 * contracts the drivers call, the outcome classification and the circuit events every breaker
 * shares, and the context a backend builds its instances in. For Brace's own backend modules
 * ({@code brace-redis}); not for application code.
 */
package dev.brace.runtime.spi;
