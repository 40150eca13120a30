/**
 * The driver SPI: what a form of call (synchronous, {@code CompletionStage}, {@code Mono}, {@code
 * Flux}, a Kotlin {@code suspend} function or {@code Flow}) needs to run a call through every
 * pattern without deciding anything itself. A driver reads a call's {@link
 * dev.brace.runtime.spi.driver.ResolvedCall} once, {@link
 * dev.brace.runtime.spi.driver.ResolvedCall#begin begins} a {@link
 * dev.brace.runtime.spi.driver.CallExecution}, and walks it: admit (admitted, wait how long,
 * refused with what: an {@link dev.brace.runtime.spi.driver.Admission}), launch the {@link
 * dev.brace.runtime.spi.driver.DelegateCall}, report the outcome, ask for the retry delay, end the
 * call, ask whether the fallback answers. A form whose delegate returns one value later needs no
 * walk of its own: {@link dev.brace.runtime.spi.driver.ResolvedCall#callAsync} runs the whole call
 * with a {@link dev.brace.runtime.support.StageAdapter}.
 *
 * <p>Modules outside {@code brace-runtime} drive calls through this package and the public API
 * only; the build fails where one imports {@code dev.brace.runtime.internal}.
 */
package dev.brace.runtime.spi.driver;
