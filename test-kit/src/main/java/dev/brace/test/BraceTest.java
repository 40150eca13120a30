package dev.brace.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test class whose tests each get a {@link BraceTestKit} of their own as a parameter: a
 * fresh registry on manual time, recording from the start, its controls undone when the test ends,
 * pass or fail.
 *
 * <pre>{@code
 * @BraceTest(properties = "brace.circuitbreaker.catalog-api.reset-timeout=30s")
 * class CatalogTest {
 *   @Test
 *   void opensThenProbes(BraceTestKit brace) { … }
 * }
 * }</pre>
 *
 * <p>Programmatic settings need the extension as a field: {@code @RegisterExtension static
 * BraceExtension brace = BraceExtension.withSettings(b -> …)}.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(BraceExtension.class)
public @interface BraceTest {
  /**
   * @return settings as system properties, each {@code key=value}
   *     ({@code brace.retry.Catalog.item.max-attempts=3}); the machine's own {@code BRACE_…} variables
   *     and {@code brace.…} properties never reach the test's registry
   */
  String[] properties() default {};
}
