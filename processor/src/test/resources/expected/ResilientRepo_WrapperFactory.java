package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.support.WrapperFactory;
import javax.annotation.processing.Generated;

/**
 * Lists Repo's wrapper in the index {@code Brace.wrap} reads.
 */
@Generated("dev.brace.processor.BraceProcessor")
@WrapperFactory.Indexed
public final class ResilientRepo_WrapperFactory implements WrapperFactory {
  @Override
  public Class<?> type() {
    return Repo.class;
  }

  @Override
  public Class<?> wrapperType() {
    return ResilientRepo.class;
  }

  @Override
  public Object wrap(Object delegate, Registry registry) {
    return ResilientRepo.wrap((Repo<?>) delegate, registry);
  }
}
