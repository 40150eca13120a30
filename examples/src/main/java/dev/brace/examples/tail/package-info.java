/**
 * The tail-latency demo: a price service whose answers have a heavy tail (one in twenty is twenty
 * times slower), called three ways — plainly, with a retry and a timeout, and with a hedge — and
 * what each way cost in latency and in requests sent, as a table and an HTML report.
 */
package dev.brace.examples.tail;
