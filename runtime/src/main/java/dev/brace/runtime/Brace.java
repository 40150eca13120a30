package dev.brace.runtime;

import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.WrapperIndex;
import dev.brace.runtime.support.WrapperFactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the generated wrapper of an interface in the index brace-processor writes (a {@link
 * WrapperFactory} per wrapper, listed for {@link java.util.ServiceLoader}), else by naming
 * convention: {@code Outer.Inner} in package {@code p} is wrapped by {@code p.ResilientOuter_Inner}.
 * The convention is the fallback for wrappers the index does not list (compiled by an older
 * processor, by a build that names {@code BraceProcessor} but not {@code WrapperIndexProcessor},
 * or in a named module that does not declare the factory with {@code provides}), and the one way
 * that reaches a class reflectively. The lookup happens once per interface; calls
 * through the wrapper use no reflection.
 */
public final class Brace {
  private static final ClassValue<Wrapping> WRAPPINGS =
      new ClassValue<>() {
        @Override
        protected Wrapping computeValue(Class<?> type) {
          Optional<WrapperFactory> listed = WrapperIndex.find(type);
          if (listed.isPresent()) {
            return listed.get()::wrap;
          }
          MethodHandle wrapMethod = findWrapMethod(type);
          return (delegate, registry) -> wrapMethod.invoke(delegate, registry);
        }
      };

  /** How one interface's wrapper is made: its factory's {@code wrap}, or the wrapper's static one. */
  @FunctionalInterface
  private interface Wrapping {
    Object wrap(Object delegate, Registry registry) throws Throwable;
  }

  private Brace() {}

  /**
   * Wraps with the {@linkplain Registry#defaultRegistry() default registry}.
   *
   * @param type the annotated interface
   * @param delegate the real implementation
   * @param <T> the interface
   * @return the resilient wrapper
   * @throws IllegalStateException when the wrapper class was not generated
   * @throws ConfigurationException when a setting is invalid
   */
  public static <T> T wrap(Class<T> type, T delegate) {
    return wrap(type, delegate, Registry.defaultRegistry());
  }

  /**
   * @param type the annotated interface
   * @param delegate the real implementation
   * @param registry where named instances are shared
   * @param <T> the interface
   * @return the resilient wrapper
   * @throws IllegalStateException when the wrapper class was not generated
   * @throws ConfigurationException when a setting is invalid
   */
  public static <T> T wrap(Class<T> type, T delegate, Registry registry) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    if (!type.isInterface()) {
      throw new IllegalArgumentException(Message.WRAP_NOT_AN_INTERFACE.format(type.getSimpleName(), type.getName()));
    }
    try {
      return type.cast(WRAPPINGS.get(type).wrap(delegate, registry));
    } catch (RuntimeException | Error unchecked) {
      throw unchecked;
    } catch (Throwable impossible) {
      throw new IllegalStateException(Message.INTERNAL_ERROR.format("Brace.wrap(" + type.getName() + ")", impossible), impossible);
    }
  }

  /**
   * Finds, without wrapping anything, whether the processor generated a wrapper for an interface:
   * the one its index lists, else a class named by the convention, implementing it, with a static
   * {@code wrap(T, Registry)}. Frameworks use it to wrap whatever can be wrapped.
   *
   * @param type any type
   * @return the generated wrapper class, or empty when {@code type} is not an interface or has none
   * @throws NullPointerException when {@code type} is null
   */
  public static Optional<Class<?>> generatedWrapper(Class<?> type) {
    Objects.requireNonNull(type, "type");
    if (!type.isInterface() || type.getClassLoader() == null) {
      return Optional.empty();
    }
    Optional<WrapperFactory> listed = WrapperIndex.find(type);
    if (listed.isPresent()) {
      return Optional.of(listed.get().wrapperType());
    }
    Class<?> wrapper = load(wrapperName(type), type.getClassLoader());
    if (wrapper == null || !type.isAssignableFrom(wrapper)) {
      return Optional.empty();
    }
    try {
      Method wrap = wrapper.getDeclaredMethod("wrap", type, Registry.class);
      return Modifier.isStatic(wrap.getModifiers()) ? Optional.of(wrapper) : Optional.empty();
    } catch (NoSuchMethodException notOurs) {
      return Optional.empty();
    }
  }

  /**
   * The name the processor gives an interface's wrapper, whether or not it was generated: what a
   * message about a missing wrapper names.
   *
   * @param type an interface
   * @return the generated class's name for it: {@code p.ResilientOuter_Inner}
   * @throws NullPointerException when {@code type} is null
   */
  public static String wrapperName(Class<?> type) {
    Objects.requireNonNull(type, "type");
    StringBuilder simpleNames = new StringBuilder(type.getSimpleName());
    for (Class<?> outer = type.getEnclosingClass(); outer != null; outer = outer.getEnclosingClass()) {
      simpleNames.insert(0, outer.getSimpleName() + "_");
    }
    String packageName = type.getPackageName();
    return (packageName.isEmpty() ? "" : packageName + ".") + "Resilient" + simpleNames;
  }

  private static MethodHandle findWrapMethod(Class<?> type) {
    String name = wrapperName(type);
    Class<?> wrapper = load(name, type.getClassLoader());
    if (wrapper == null) {
      wrapper = load(name, Thread.currentThread().getContextClassLoader());
    }
    if (wrapper == null) {
      throw new IllegalStateException(Message.WRAPPER_MISSING.format(name, type.getName()));
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(wrapper, MethodHandles.lookup());
      return lookup
          .findStatic(wrapper, "wrap", MethodType.methodType(type, type, Registry.class))
          .asType(MethodType.methodType(Object.class, Object.class, Registry.class));
    } catch (ReflectiveOperationException | IllegalArgumentException unusable) {
      throw new IllegalStateException(Message.WRAPPER_INCOMPATIBLE.format(name, type.getSimpleName()), unusable);
    }
  }

  private static Class<?> load(String name, ClassLoader loader) {
    if (loader == null) {
      return null;
    }
    try {
      return Class.forName(name, true, loader);
    } catch (ClassNotFoundException absent) {
      return null;
    }
  }
}
