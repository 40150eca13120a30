/**
 * The runtime's implementation, not an API: names and signatures change without notice. Its
 * sub-packages are {@code policy} (each pattern's decisions and state), {@code sequence} (a call's
 * walk through the patterns and the sync and async drivers), {@code config} (the layers above the
 * annotations and the keys that address them), {@code event} (the one boundary every event passes),
 * {@code chaos} (fault injection), {@code http} (what Brace reads from HTTP client frameworks' exceptions)
 * and {@code store} (shared, named instances). This package holds what all of them use: the tagged
 * messages, rethrowing, and the threads Brace starts.
 */
package dev.brace.runtime.internal;
