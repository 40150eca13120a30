package dev.brace.test.spring;

import dev.brace.spring.BraceAutoConfiguration;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Puts the application's registry on manual time and adds a {@link dev.brace.test.BraceTestKit}
 * bean to the test's context: on a {@code @SpringBootTest}, and on a test slice ({@code
 * @WebMvcTest}, {@code @RestClientTest}, …), which gets the starter's registry and wrapped beans
 * through it as well.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureBraceTest
 * class QuotesTest {
 *   @Autowired Quotes quotes;          // the starter's wrapper
 *   @Autowired BraceTestKit brace;
 * }
 * }</pre>
 *
 * <p>Between test methods the kit undoes its controls, closes every breaker, refills every limiter
 * and forgets what it recorded; time is not turned back.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration({BraceTestAutoConfiguration.class, BraceAutoConfiguration.class})
public @interface AutoConfigureBraceTest {}
