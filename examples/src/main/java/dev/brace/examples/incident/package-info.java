/**
 * The incident demo's machinery: a recommendations service on the JDK's HTTP server that follows
 * a script (healthy, brownout, latency spike, hard down, recovery), the concurrent callers that
 * drive a client through it, and the summary and HTML report of what happened.
 */
package dev.brace.examples.incident;
