/**
 * What the wrappers {@code brace-processor} generates call: the {@link
 * dev.brace.runtime.support.CallDefinition} of each method (the annotations as written), the
 * {@link dev.brace.runtime.support.ResilientCall} a registry resolves it into, and the small
 * functional types a generated method hands its delegate call through. Public because generated
 * classes live in the user's packages; hand-written code uses {@code Stack} instead.
 */
package dev.brace.runtime.support;
