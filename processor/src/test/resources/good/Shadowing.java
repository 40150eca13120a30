package p;

import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;

/**
 * Member types named like classes the wrapper names: the wrapper inherits them, so inside it each
 * such simple name means the member type, whatever it imports.
 */
public interface Shadowing extends ShadowingBase {
  final class Objects {}

  record Registry(String name) {}

  enum Override { ON }

  /** Named like the type of the field that makes an injected fault. */
  interface Function {}

  @Retry(maxAttempts = 2)
  @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
  @Fallback(method = "none", on = java.io.IOException.class)
  java.util.List<String> names(Registry registry) throws java.io.IOException;

  static java.util.List<String> none(Registry registry, java.io.IOException failure) {
    return java.util.List.of();
  }
}

interface ShadowingBase {
  /** Inherited from a superinterface: hidden in the wrapper all the same. */
  interface List {}

  final class CallDefinition {}

  @Retry
  String describe(String what);
}
