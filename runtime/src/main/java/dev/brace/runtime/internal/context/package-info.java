/**
 * The caller's context (SLF4J MDC, OpenTelemetry {@code Context}, Micrometer context-propagation
 * accessors), taken when a call starts and restored on every other thread a part of the call runs
 * on. The optional libraries are each named by one class, loaded only when the library is present.
 */
package dev.brace.runtime.internal.context;
