/**
 * Providing the generated wrapper to application code: through Dagger ({@link
 * dev.brace.examples.wiring.RecsModule}, {@link dev.brace.examples.wiring.RecsComponent}) and through
 * plain constructor wiring ({@link dev.brace.examples.wiring.PlainWiring}). Application code ({@link
 * dev.brace.examples.wiring.RecommendationsPage}) depends on the interface only.
 */
package dev.brace.examples.wiring;
