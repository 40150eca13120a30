package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.config.ConfigBuilder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks annotation values with the runtime's own config builders, so the duration grammar and
 * every range are written once, in the runtime, and the compiler refuses exactly what a wrapper
 * would refuse at start-up. The builders are called by setter name because the processor sees
 * attributes by name; classes (exception filters, result predicates) are not checked here: they are not loaded at
 * compile time.
 */
final class RuntimeConfigCheck {

  /**
   * What the runtime refused.
   *
   * @param attribute the attribute at fault ({@code name} for a refused name)
   * @param accepted what the runtime would accept; for a refused name, why it is refused
   */
  record Refusal(String attribute, String accepted) {}

  /**
   * Results already known, by what decides them (the kind, the name, every value checked): a type-level
   * annotation is checked once for each of its interface's methods, and building a config is much of
   * what the processor costs. Bounded; the processor may live as long as a build daemon.
   */
  private static final Map<List<Object>, Optional<Refusal>> CHECKED = Collections.synchronizedMap(
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Object>, Optional<Refusal>> eldest) {
          return size() > 4096;
        }
      });

  /** Each config builder's setters by name, looked up once. */
  private static final ClassValue<Map<String, List<Method>>> SETTERS = new ClassValue<>() {
    @Override
    protected Map<String, List<Method>> computeValue(Class<?> type) {
      Map<String, List<Method>> setters = new HashMap<>();
      for (Method method : type.getMethods()) {
        if (method.getParameterCount() == 1) {
          setters.computeIfAbsent(method.getName(), name -> new ArrayList<>()).add(method);
        }
      }
      return setters;
    }
  };

  private RuntimeConfigCheck() {}

  /**
   * @param kind the pattern
   * @param name the instance's name
   * @param settings every attribute that is passed as a setter
   * @return the first refusal, or empty when the runtime accepts every value
   */
  static Optional<Refusal> check(Kind kind, String name, List<Setting> settings) {
    List<Object> key = new ArrayList<>();
    key.add(kind);
    key.add(name);
    for (Setting setting : settings) {
      Setting.Value value = setting.value();
      if (!(value instanceof Setting.Types || value instanceof Setting.NewInstance)) {
        key.add(setting.setter());
        key.add(value instanceof Setting.EnumConstant constant ? constant.constant() : value);
      }
    }
    Optional<Refusal> known = CHECKED.get(key);
    if (known == null) {
      known = build(kind, name, settings);
      CHECKED.put(key, known);
    }
    return known;
  }

  private static Optional<Refusal> build(Kind kind, String name, List<Setting> settings) {
    try {
      ConfigBuilder<?> builder = kind.builder(name);
      for (Setting setting : settings) {
        // Classes (exception filters, result predicates) are not loaded at compile time.
        if (!(setting.value() instanceof Setting.Types || setting.value() instanceof Setting.NewInstance)) {
          set(builder, setting);
        }
      }
      builder.build();
      return Optional.empty();
    } catch (InvocationTargetException thrown) {
      return refusal(kind, thrown.getCause());
    } catch (RuntimeException refused) {
      return refusal(kind, refused);
    } catch (ReflectiveOperationException mismatch) {
      throw new IllegalStateException(
          "the runtime config of @" + kind.annotation().getSimpleName() + " does not match the annotation", mismatch);
    }
  }

  /**
   * A refused value names its attribute; a refused name is an {@link IllegalArgumentException}
   * whose message, without its tag, says why.
   */
  private static Optional<Refusal> refusal(Kind kind, Throwable cause) {
    if (cause instanceof ConfigurationException refused && refused.attribute() != null) {
      return Optional.of(new Refusal(refused.attribute(), refused.accepted()));
    }
    if (cause instanceof IllegalArgumentException refused) {
      // The runtime tags its messages "[brace:<tag>] "; the refusal is quoted inside the processor's own.
      String message = refused.getMessage();
      return Optional.of(new Refusal("name", message == null ? null : message.replaceFirst("^\\[brace:[a-z-]+\\] ", "")));
    }
    throw new IllegalStateException("the runtime config of @" + kind.annotation().getSimpleName() + " failed", cause);
  }

  private static void set(Object builder, Setting setting) throws ReflectiveOperationException {
    Setting.Value value = setting.value();
    for (Method method : SETTERS.get(builder.getClass()).getOrDefault(setting.setter(), List.of())) {
      Class<?> parameter = method.getParameterTypes()[0];
      if (value instanceof Setting.Number number
          && (number.number() instanceof Integer && parameter == int.class
              || number.number() instanceof Double && parameter == double.class)) {
        method.invoke(builder, number.number());
        return;
      }
      if (value instanceof Setting.Flag flag && parameter == boolean.class) {
        method.invoke(builder, flag.flag());
        return;
      }
      if (value instanceof Setting.Text text && parameter == String.class) {
        method.invoke(builder, text.text());
        return;
      }
      if (value instanceof Setting.EnumConstant constant && parameter.isEnum()) {
        method.invoke(builder, enumConstant(parameter, constant.constant()));
        return;
      }
    }
    throw new NoSuchMethodException(builder.getClass().getName() + "." + setting.setter());
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> type, String constant) {
    return Enum.valueOf((Class) type, constant);
  }
}
