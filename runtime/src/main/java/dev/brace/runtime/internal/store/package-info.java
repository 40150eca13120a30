/**
 * The instances a registry shares by name: created on first use from the first site's effective
 * settings, checked against every later site's, kept locally or in the backend their settings
 * name, one per key for a keyed family. It resolves a call's definition into its sequence.
 */
package dev.brace.runtime.internal.store;
