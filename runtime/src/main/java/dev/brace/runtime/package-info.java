/**
 * What users and tests touch: {@link dev.brace.runtime.Brace}, the {@link
 * dev.brace.runtime.Registry} of named instances, {@link dev.brace.runtime.Stack} for call sites
 * that cannot be annotated, the exceptions Brace throws, the events it emits ({@link
 * dev.brace.runtime.EventKind}), {@link dev.brace.runtime.TimeSource} (with {@link
 * dev.brace.runtime.ManualTimeSource} for tests) and the handles for introspecting breakers,
 * limiters and bulkheads. Settings are in {@code config}; what generated code calls is in {@code
 * generated}; everything in {@code internal} may change without notice.
 */
package dev.brace.runtime;
