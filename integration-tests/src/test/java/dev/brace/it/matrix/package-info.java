/**
 * The conformance matrix: behavioural scenarios run through every form (generated wrapper or
 * {@code Stack}; sync, async, Reactor {@code Mono} or {@code Flux}), every configuration layer (annotation, programmatic,
 * environment), the local and a non-local backend, with and without a metrics listener, on
 * manual time. {@link dev.brace.it.matrix.ConformanceMatrixTest} runs it and writes the report.
 */
package dev.brace.it.matrix;
