package dev.brace.spring;

import dev.brace.runtime.Brace;
import dev.brace.runtime.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ClassUtils;

/**
 * Wraps every bean that implements an interface for which a generated {@code Resilient<Interface>}
 * exists, so injection by the interface gets the wrapper: the annotations on the interface are
 * all it takes. The wrapper is found by the processor's naming convention, once per interface;
 * calls go through it with no reflection. A bean that already is a generated wrapper (a {@code
 * @Bean} method that wraps by hand) is left as it is, so nothing is wrapped twice; a bean
 * implementing two interfaces that both have one is an error, since the wrapper implements only
 * one of them.
 */
final class AutoWrapper implements BeanPostProcessor {
  private final ObjectProvider<Registry> registry;
  private final Map<Class<?>, Optional<Class<?>>> wrappers = new ConcurrentHashMap<>();

  AutoWrapper(ObjectProvider<Registry> registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
    List<Class<?>> wrappable = new ArrayList<>();
    for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(bean.getClass())) {
      Optional<Class<?>> wrapper = wrappers.computeIfAbsent(type, AutoWrapper::generatedWrapper);
      if (wrapper.isPresent()) {
        if (wrapper.get() == bean.getClass()) {
          return bean;
        }
        wrappable.add(type);
      }
    }
    if (wrappable.isEmpty()) {
      return bean;
    }
    if (wrappable.size() > 1) {
      throw new BeanCreationException(beanName, "[brace:auto-wrap-ambiguous] bean '" + beanName + "' ("
          + bean.getClass().getName() + ") implements " + wrappable.get(0).getName() + " and "
          + wrappable.get(1).getName() + ", which both have a generated wrapper; a wrapper implements one"
          + " interface, so wrap the bean by hand in a @Bean method with the one it is injected as"
          + " (ResilientX.wrap(impl, registry)), or split it in two beans");
    }
    return wrap(wrappable.get(0), bean);
  }

  @SuppressWarnings("unchecked")
  private <T> T wrap(Class<T> type, Object bean) {
    return Brace.wrap(type, (T) bean, registry.getObject());
  }

  /** @return {@code Resilient<Interface>} when the processor generated one for {@code type} */
  private static Optional<Class<?>> generatedWrapper(Class<?> type) {
    if (type.getName().startsWith("java.") || type.getName().startsWith("org.springframework.")) {
      return Optional.empty();
    }
    try {
      return Brace.generatedWrapper(type);
    } catch (LinkageError unloadable) {
      return Optional.empty();
    }
  }
}
