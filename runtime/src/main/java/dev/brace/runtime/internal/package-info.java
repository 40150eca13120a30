/**
 * The policies and the guard that drives them. Public only because generated wrappers call them;
 * not an API: names and signatures change without notice.
 */
package dev.brace.runtime.internal;
