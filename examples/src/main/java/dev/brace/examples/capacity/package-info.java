/**
 * The adaptive-limits demo ({@code CapacityDemo}): a catalog service whose capacity drops and
 * recovers, called through a fixed bulkhead of 40, a fixed one of 10 and an adaptive one, half the
 * calls sheddable; and a quota that answers 429, called through a fixed and an adaptive limiter.
 */
package dev.brace.examples.capacity;
