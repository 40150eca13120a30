package dev.brace.test.spring;

import dev.brace.test.BraceTestKit;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets the context's {@link BraceTestKit} before and after each test method, whether it passed or
 * not: one test's forced breaker, recorded calls or open circuit never reach the next test that
 * shares the cached context. Does nothing in a context without the kit.
 */
public final class BraceTestExecutionListener extends AbstractTestExecutionListener {

  /** Created by Spring's test support, from {@code META-INF/spring.factories}. */
  public BraceTestExecutionListener() {}

  /** @return late, so that the context is ready and other listeners have run first */
  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 100;
  }

  @Override
  public void beforeTestMethod(TestContext testContext) {
    reset(testContext);
  }

  @Override
  public void afterTestMethod(TestContext testContext) {
    reset(testContext);
  }

  private static void reset(TestContext testContext) {
    if (testContext.hasApplicationContext()) {
      testContext.getApplicationContext().getBeanProvider(BraceTestKit.class).ifAvailable(BraceTestKit::reset);
    }
  }
}
