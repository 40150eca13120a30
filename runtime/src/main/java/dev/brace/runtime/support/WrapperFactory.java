package dev.brace.runtime.support;

import dev.brace.runtime.Registry;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes the generated wrapper of one interface. brace-processor nests one in each wrapper
 * ({@code Resilient<Interface>.Factory}) and lists them all in {@code
 * META-INF/services/dev.brace.runtime.support.WrapperFactory}, which {@code Brace.wrap} reads with
 * {@link java.util.ServiceLoader}: so the wrapper of an interface is found through an index the
 * compiler wrote, never by loading a class whose name is computed at run time. A native image
 * registers service providers itself, so it needs no reflection metadata for them.
 *
 * <p>Implementations are generated; a class of your own has no reason to implement it.
 */
public interface WrapperFactory {
  /** Where the index is: the service file {@link java.util.ServiceLoader} reads. */
  String SERVICE_FILE = "META-INF/services/dev.brace.runtime.support.WrapperFactory";

  /** @return the annotated interface this factory wraps */
  Class<?> type();

  /** @return the generated {@code Resilient<Interface>} class */
  Class<?> wrapperType();

  /**
   * @param delegate the real implementation, an instance of {@link #type()}
   * @param registry where named instances are shared
   * @return the resilient wrapper around {@code delegate}
   * @throws ClassCastException when {@code delegate} is not an instance of {@link #type()}
   * @throws dev.brace.runtime.ConfigurationException when a setting is invalid
   */
  Object wrap(Object delegate, Registry registry);

  /**
   * Marks a generated factory. It is kept in the class file so that brace-processor's index, which
   * Gradle runs as an aggregating processor over every class carrying it, lists the factories of a
   * module's unchanged interfaces too when only some of them are recompiled.
   */
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.TYPE)
  @interface Indexed {}
}
