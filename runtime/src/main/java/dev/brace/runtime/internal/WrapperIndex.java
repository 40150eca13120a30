package dev.brace.runtime.internal;

import dev.brace.runtime.support.WrapperFactory;
import java.lang.ref.Reference;
import java.lang.ref.SoftReference;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.WeakHashMap;

/**
 * The wrappers brace-processor listed ({@link WrapperFactory}, read with {@link ServiceLoader}),
 * looked up by interface. Each class loader's list is read once and kept while memory allows: a
 * strong reference would keep an undeployed application's loader alive through its factories.
 */
public final class WrapperIndex {
  private static final Map<ClassLoader, Reference<Map<Class<?>, WrapperFactory>>> BY_LOADER = new WeakHashMap<>();

  private WrapperIndex() {}

  /**
   * @param type an interface
   * @return the factory listed for {@code type} by its own class loader or, failing that, by the
   *     thread's context class loader; empty when neither lists one
   */
  public static Optional<WrapperFactory> find(Class<?> type) {
    WrapperFactory factory = factories(type.getClassLoader()).get(type);
    if (factory == null) {
      factory = factories(Thread.currentThread().getContextClassLoader()).get(type);
    }
    return Optional.ofNullable(factory);
  }

  private static synchronized Map<Class<?>, WrapperFactory> factories(ClassLoader loader) {
    if (loader == null) {
      return Map.of();
    }
    Reference<Map<Class<?>, WrapperFactory>> kept = BY_LOADER.get(loader);
    Map<Class<?>, WrapperFactory> factories = kept == null ? null : kept.get();
    if (factories == null) {
      factories = read(loader);
      BY_LOADER.put(loader, new SoftReference<>(factories));
    }
    return factories;
  }

  private static Map<Class<?>, WrapperFactory> read(ClassLoader loader) {
    Map<Class<?>, WrapperFactory> factories = new HashMap<>();
    Iterator<WrapperFactory> listed = ServiceLoader.load(WrapperFactory.class, loader).iterator();
    String lastProblem = null;
    while (true) {
      try {
        if (!listed.hasNext()) {
          return factories;
        }
        WrapperFactory factory = listed.next();
        factories.putIfAbsent(factory.type(), factory);
      } catch (ServiceConfigurationError | LinkageError stale) {
        // An entry whose class is gone or cannot load (a stale index in a partly rebuilt output):
        // the iterator moves past it, and Brace.wrap still finds that wrapper by its name. The
        // iterator only promises to try, so the same problem twice in a row ends the reading.
        if (String.valueOf(stale.getMessage()).equals(lastProblem)) {
          return factories;
        }
        lastProblem = String.valueOf(stale.getMessage());
      }
    }
  }
}
