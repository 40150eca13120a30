/**
 * Settings of every named instance: one immutable config class per kind, built by a builder
 * whose setters check each value once, for annotations (at compile time, by the processor), for
 * programmatic settings and for the environment alike. Defaults are read from the annotations
 * themselves, so they are written in one place.
 */
package dev.brace.runtime.config;
