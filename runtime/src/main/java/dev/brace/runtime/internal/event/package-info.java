/**
 * The one boundary every event passes: attributes are redacted here, then written to SLF4J,
 * added to the current OpenTelemetry span when the API is present, and handed to listeners.
 * With nobody listening an event costs a volatile read and a level check.
 */
package dev.brace.runtime.internal.event;
