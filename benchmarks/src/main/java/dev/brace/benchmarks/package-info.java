/**
 * JMH benchmarks: one trivial, never-inlined target method called directly, through Brace's
 * generated wrappers, and through the same stacks built with Resilience4j and Failsafe.
 *
 * <p>Every library gets one benchmark class, and the stacks carry the same method name in each
 * ({@code retry}, {@code breakerClassic}, … {@code sixPatterns}), so {@code benchmarks/run} can
 * put a Brace result beside the Resilience4j and Failsafe results for the same stack. Each stack
 * lives in its own {@code @State}, built once in {@code @Setup}: the benchmarks measure the
 * happy path (nothing fails, nothing is refused), not construction.
 *
 * <p>{@link dev.brace.benchmarks.MetricsBenchmarks} and {@link
 * dev.brace.benchmarks.MetricsLoggingBenchmarks} put both libraries in one class instead, since
 * what they compare is the same stack with each library's Micrometer binding ({@code
 * braceFourPatterns}, {@code resilience4jFourPatterns}), on each of two meter registries (the
 * {@code registry} parameter), against a metered floor; they also measure a failing call.
 *
 * <p>{@link dev.brace.benchmarks.RedisAdmissionBenchmarks} and {@link
 * dev.brace.benchmarks.RedisRoundTrips} stand apart: they compare Brace's Redis rate limiter with
 * Bucket4j's compare-and-swap proxy against a {@code redis-server} they start themselves, and only
 * {@code benchmarks/run --redis} runs them.
 */
package dev.brace.benchmarks;
