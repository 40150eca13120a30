package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.support.WrapperFactory;
import javax.annotation.processing.Generated;

/**
 * Lists Outer.Inner's wrapper in the index {@code Brace.wrap} reads.
 */
@Generated("dev.brace.processor.BraceProcessor")
@WrapperFactory.Indexed
public final class ResilientOuter_Inner_WrapperFactory implements WrapperFactory {
  @Override
  public Class<?> type() {
    return Outer.Inner.class;
  }

  @Override
  public Class<?> wrapperType() {
    return ResilientOuter_Inner.class;
  }

  @Override
  public Object wrap(Object delegate, Registry registry) {
    return ResilientOuter_Inner.wrap((Outer.Inner) delegate, registry);
  }
}
