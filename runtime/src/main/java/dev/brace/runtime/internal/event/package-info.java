/**
 * The one boundary every event passes: attributes are redacted here, then written to SLF4J,
 * added to the current OpenTelemetry span when the API is present, and handed to listeners.
 * With nobody listening an event costs a volatile read and a level check. Beside it, the typed
 * metrics path: a bound {@link dev.brace.runtime.internal.event.MetricsListener} is fed with
 * primitive arguments through handles each call and instance resolves once, so metrics need no
 * event at all.
 */
package dev.brace.runtime.internal.event;
