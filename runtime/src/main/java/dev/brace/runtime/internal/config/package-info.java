/**
 * Configuration above the call sites: programmatic settings, environment variables and system
 * properties laid over what an annotation wrote, in that order; the names of their keys; the
 * manifest of instances the processor wrote, and the audit that finds keys naming nothing.
 */
package dev.brace.runtime.internal.config;
