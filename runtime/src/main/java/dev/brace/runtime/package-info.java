/**
 * What users and tests touch: {@link dev.brace.runtime.Brace}, the {@link
 * dev.brace.runtime.Registry} of named instances, the exceptions Brace throws, {@link
 * dev.brace.runtime.TimeSource} (with {@link dev.brace.runtime.ManualTimeSource} for tests) and
 * the handles for introspecting breakers, limiters and bulkheads. Implementation lives in {@code
 * internal} and {@code config}.
 */
package dev.brace.runtime;
