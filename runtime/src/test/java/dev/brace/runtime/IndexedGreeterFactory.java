package dev.brace.runtime;

import dev.brace.runtime.support.WrapperFactory;

/**
 * A factory listed in the test class path's {@code META-INF/services} index, for an interface
 * whose wrapper is not named by the convention: {@code Brace.wrap} can only find it through the
 * index.
 */
public final class IndexedGreeterFactory implements WrapperFactory {
  /** What is wrapped. */
  public interface Greeter {
    String greet(String name);
  }

  /** The wrapper, named so that no lookup by name could find it. */
  static final class ShoutingGreeter implements Greeter {
    private final Greeter delegate;

    ShoutingGreeter(Greeter delegate) {
      this.delegate = delegate;
    }

    @Override
    public String greet(String name) {
      return delegate.greet(name).toUpperCase(java.util.Locale.ROOT);
    }
  }

  @Override
  public Class<?> type() {
    return Greeter.class;
  }

  @Override
  public Class<?> wrapperType() {
    return ShoutingGreeter.class;
  }

  @Override
  public Object wrap(Object delegate, Registry registry) {
    return new ShoutingGreeter((Greeter) delegate);
  }
}
