/**
 * The test kit: {@link dev.brace.test.BraceTest} gives each JUnit 5 test a {@link
 * dev.brace.test.BraceTestKit}, a registry on manual time that records every call, with assertions
 * that read as the behaviour ({@code brace.call("Catalog.item").retried(2).thenFellBack()}) and
 * controls that force a breaker, a limiter, a bulkhead or a fault for the test's duration. For
 * tests only: a registry the kit did not build pays nothing for it.
 */
package dev.brace.test;
