package dev.brace.spring;

import dev.brace.runtime.Brace;
import dev.brace.runtime.Registry;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.LoggerFactory;
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
 *
 * <p>A bean whose interface carries Brace's annotations but has no generated wrapper was meant to
 * be protected and is not: the processor did not run when the interface was compiled. That stops
 * the start ({@code [brace:processor-missing]}, naming the interface and the build lines to add),
 * or with {@code brace.processor-missing=warn} is logged once per interface and the bean is left
 * unwrapped.
 */
final class AutoWrapper implements BeanPostProcessor {
  /** The property that turns a missing processor from a failed start into a warning. */
  static final String PROCESSOR_MISSING = "brace.processor-missing";

  private final ObjectProvider<Registry> registry;
  private final boolean failWhenProcessorMissing;
  private final Map<Class<?>, Optional<Class<?>>> wrappers = new ConcurrentHashMap<>();
  /** Interfaces already reported as unprotected, so a WARN comes once per interface, not per bean. */
  private final Set<Class<?>> reportedUnprotected = ConcurrentHashMap.newKeySet();

  /**
   * @param registry the registry the wrappers use, looked up when the first bean is wrapped
   * @param processorMissing {@code fail} or {@code warn}: what a bean left unprotected does
   * @throws IllegalStateException when {@code processorMissing} is neither
   */
  AutoWrapper(ObjectProvider<Registry> registry, String processorMissing) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.failWhenProcessorMissing = switch (processorMissing.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "fail" -> true;
      case "warn" -> false;
      default -> throw new IllegalStateException("[brace:processor-missing] " + PROCESSOR_MISSING + " = '"
          + processorMissing + "' is not accepted; accepted: fail (the default: the application does not start)"
          + " or warn (the bean is left unprotected, with a warning)");
    };
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
      } else {
        reportIfUnprotected(type, bean, beanName);
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

  /**
   * Fails, or warns once, when {@code type} carries Brace's annotations: it has no wrapper (the
   * caller checked), so the bean would run with none of what they say.
   */
  private void reportIfUnprotected(Class<?> type, Object bean, String beanName) {
    if (skipped(type) || reportedUnprotected.contains(type)) {
      return;
    }
    Set<String> annotations = BraceAnnotationsInClassFile.of(type);
    if (annotations.isEmpty()) {
      return;
    }
    String message = processorMissing(type, annotations, bean, beanName);
    if (failWhenProcessorMissing) {
      throw new BeanCreationException(beanName, message);
    }
    if (reportedUnprotected.add(type)) {
      LoggerFactory.getLogger("dev.brace").warn(message);
    }
  }

  /** @return what {@code [brace:processor-missing]} says: the interface, the artifact, the build lines */
  static String processorMissing(Class<?> type, Set<String> annotations, Object bean, String beanName) {
    // Known from brace-runtime's jar; classes run from a build's output directory have no manifest.
    String version = Optional.ofNullable(Registry.class.getPackage().getImplementationVersion())
        .orElse("<brace-runtime's version>");
    String buildLines = writtenInKotlin(type)
        // Kotlin sources never reach maven-compiler-plugin's processors: kapt runs them.
        ? " Add the artifact dev.brace:brace-processor to the kapt annotation processors of the module that declares "
            + type.getSimpleName() + " and rebuild. Maven, in the <configuration> of kotlin-maven-plugin's kapt goal:"
            + " <annotationProcessorPaths><annotationProcessorPath><groupId>dev.brace</groupId><artifactId>"
            + "brace-processor</artifactId><version>" + version + "</version></annotationProcessorPath>"
            + "</annotationProcessorPaths>, and the generated sources (target/generated-sources/kapt/compile) among"
            + " the sources compiled after it. Gradle: the kotlin(\"kapt\") plugin and kapt(\"dev.brace:brace-processor:"
            + version + "\")."
        : " Add the artifact dev.brace:brace-processor to the annotation processors of the module that declares "
            + type.getSimpleName() + " and rebuild. Maven, in maven-compiler-plugin's <configuration>:"
            + " <annotationProcessorPaths><path><groupId>dev.brace</groupId><artifactId>brace-processor</artifactId>"
            + "<version>" + version + "</version></path></annotationProcessorPaths>."
            + " Gradle: annotationProcessor(\"dev.brace:brace-processor:" + version + "\").";
    return "[brace:processor-missing] bean '" + beanName + "' (" + bean.getClass().getName() + ") implements "
        + type.getName() + ", which carries " + String.join(", ", annotations) + " but has no generated wrapper "
        + Brace.wrapperName(type) + ": brace-processor did not run when " + type.getSimpleName()
        + " was compiled, so the bean would run unprotected." + buildLines
        + " To start anyway with the bean unprotected, set " + PROCESSOR_MISSING + "=warn";
  }

  /**
   * @return whether {@code type} was compiled by Kotlin: it carries {@code @kotlin.Metadata} (kept at
   *     run time; without kotlin-stdlib on the class path it cannot be read, and the type counts as Java)
   */
  private static boolean writtenInKotlin(Class<?> type) {
    for (Annotation annotation : type.getDeclaredAnnotations()) {
      if (annotation.annotationType().getName().equals("kotlin.Metadata")) {
        return true;
      }
    }
    return false;
  }

  /** @return whether {@code type} is a platform's or Spring's own interface, which Brace never wraps */
  private static boolean skipped(Class<?> type) {
    return type.getName().startsWith("java.") || type.getName().startsWith("org.springframework.");
  }

  /** @return {@code Resilient<Interface>} when the processor generated one for {@code type} */
  static Optional<Class<?>> generatedWrapper(Class<?> type) {
    if (skipped(type)) {
      return Optional.empty();
    }
    try {
      return Brace.generatedWrapper(type);
    } catch (LinkageError unloadable) {
      return Optional.empty();
    }
  }
}
