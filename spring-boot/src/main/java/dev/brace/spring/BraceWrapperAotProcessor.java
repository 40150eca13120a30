package dev.brace.spring;

import dev.brace.runtime.Registry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Ahead of time, finds every bean whose interface has a generated wrapper, as the starter's
 * bean post-processor will wrap it at run time, and registers the wrapper for the reflection
 * {@code Brace.wrap} uses to find it (its class by name and its static {@code wrap}). A native image
 * of the application then wraps its beans with no metadata of its own. Registered through {@code
 * META-INF/spring/aot.factories}.
 */
final class BraceWrapperAotProcessor implements BeanFactoryInitializationAotProcessor {
  @Override
  public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
    Map<Class<?>, Class<?>> wrappers = wrappers(beanFactory);
    if (wrappers.isEmpty()) {
      return null;
    }
    return (generationContext, code) -> wrappers.forEach((type, wrapper) -> {
      ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
      reflection.registerType(type);
      reflection.registerType(wrapper, MemberCategory.INVOKE_DECLARED_METHODS);
      try {
        reflection.registerMethod(wrapper.getDeclaredMethod("wrap", type, Registry.class), ExecutableMode.INVOKE);
      } catch (NoSuchMethodException notGenerated) {
        throw new IllegalStateException(wrapper.getName() + " was found as " + type.getName() + "'s wrapper but has no"
            + " wrap(" + type.getSimpleName() + ", Registry)", notGenerated);
      }
    });
  }

  /** @return each wrapped interface of the factory's beans, with its generated wrapper */
  static Map<Class<?>, Class<?>> wrappers(ConfigurableListableBeanFactory beanFactory) {
    Map<Class<?>, Class<?>> wrappers = new LinkedHashMap<>();
    for (String name : beanFactory.getBeanDefinitionNames()) {
      Class<?> beanType = beanFactory.getType(name, false);
      if (beanType == null) {
        continue;
      }
      for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(beanType)) {
        if (!wrappers.containsKey(type)) {
          AutoWrapper.generatedWrapper(type).ifPresent(wrapper -> wrappers.put(type, wrapper));
        }
      }
    }
    return wrappers;
  }
}
