/**
 * The one boundary every event passes: attributes are redacted here, then written to SLF4J,
 * added to the current OpenTelemetry span when the API is present, and handed to listeners.
 * With nobody listening an event costs a volatile read and a level check. Beside it, the typed
 * metrics path ({@code dev.brace.runtime.metrics}): {@code MetricsListeners} fans a report out to
 * every bound {@link dev.brace.runtime.metrics.MetricsListener}, redacting names as events are.
 */
package dev.brace.runtime.internal.event;
