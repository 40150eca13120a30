package dev.brace.test;

import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Gives each test a {@link BraceTestKit} of its own (a parameter of the test method, or of a
 * {@code @BeforeEach} method) and closes it after the test, pass or fail, undoing its controls.
 * Registered by {@link BraceTest}, by {@code @ExtendWith(BraceExtension.class)}, or as a field for
 * programmatic settings:
 *
 * <pre>{@code
 * @RegisterExtension
 * static BraceExtension brace = BraceExtension.withSettings(b -> b.retry("Catalog.item", r -> r.maxAttempts(3)));
 * }</pre>
 */
public final class BraceExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BraceExtension.class);

  private final Consumer<Registry.Builder> settings;

  /** Registers with no programmatic settings; what {@link BraceTest} does. */
  public BraceExtension() {
    this(builder -> {});
  }

  private BraceExtension(Consumer<Registry.Builder> settings) {
    this.settings = settings;
  }

  /**
   * @param settings programmatic settings, applied to every test's registry
   * @return the extension, to register with {@code @RegisterExtension}
   * @throws NullPointerException when {@code settings} is null
   */
  public static BraceExtension withSettings(Consumer<Registry.Builder> settings) {
    return new BraceExtension(Objects.requireNonNull(settings, "settings"));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    kit(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    BraceTestKit kit = context.getStore(NAMESPACE).remove(BraceTestKit.class, BraceTestKit.class);
    if (kit != null) {
      kit.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == BraceTestKit.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException("a BraceTestKit belongs to one test: take it as a parameter of the test"
          + " method or of a @BeforeEach method, not of " + parameter.getDeclaringExecutable());
    }
    return kit(context);
  }

  private BraceTestKit kit(ExtensionContext context) {
    return context.getStore(NAMESPACE).getOrComputeIfAbsent(
        BraceTestKit.class, type -> BraceTestKit.start(properties(context), settings), BraceTestKit.class);
  }

  private static Map<String, String> properties(ExtensionContext context) {
    Map<String, String> properties = new LinkedHashMap<>();
    Optional<BraceTest> annotation = Optional.empty();
    // A @Nested class runs under its outer class's @BraceTest.
    for (Class<?> type = context.getTestClass().orElse(null); type != null && annotation.isEmpty(); type = type.getEnclosingClass()) {
      annotation = AnnotationSupport.findAnnotation(type, BraceTest.class);
    }
    for (String property : annotation.map(BraceTest::properties).orElse(new String[0])) {
      int equals = property.indexOf('=');
      if (equals <= 0) {
        throw new ExtensionConfigurationException("@BraceTest(properties = \"" + property + "\"): a setting is"
            + " written key=value, e.g. brace.circuitbreaker.catalog-api.reset-timeout=30s");
      }
      properties.put(property.substring(0, equals).trim(), property.substring(equals + 1).trim());
    }
    return properties;
  }
}
