/**
 * The test kit in Spring Boot tests: {@link dev.brace.test.spring.AutoConfigureBraceTest} puts the
 * application's own registry (the starter's, with its wrapped beans) on manual time and adds a
 * {@link dev.brace.test.BraceTestKit} bean, reset between test methods.
 */
package dev.brace.test.spring;
