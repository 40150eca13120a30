package dev.brace.runtime.internal.chaos;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.InjectedFaultException;
import dev.brace.runtime.internal.Message;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The exception an injected fault throws, checked once when a call is resolved: a class that can
 * be loaded, a concrete {@link Throwable} with a public {@code String} constructor (tried once, so
 * one that throws is refused too), and either unchecked or one the method declares. Made anew for
 * every injected fault, with a message that says it was injected.
 */
public final class FaultType {
  private final Class<? extends Throwable> type;
  private final Function<String, ? extends Throwable> make;

  private FaultType(Class<? extends Throwable> type, Function<String, ? extends Throwable> make) {
    this.type = type;
    this.make = make;
  }

  /**
   * The exception of a call that names none: {@link IOException} where the method may throw one,
   * else {@link InjectedFaultException}.
   *
   * @param throwsTypes what the method declares
   * @return the default fault of such a method
   */
  public static FaultType defaultFor(List<Class<? extends Throwable>> throwsTypes) {
    boolean mayThrowIo = throwsTypes.stream().anyMatch(declared -> declared.isAssignableFrom(IOException.class));
    return mayThrowIo ? new FaultType(IOException.class, IOException::new)
        : new FaultType(InjectedFaultException.class, InjectedFaultException::new);
  }

  /**
   * A fault the call's generated code knows how to make, found by the configured name with no
   * reflection; else, as {@link #of}, loaded and checked through the class loaders.
   *
   * @param className the configured class
   * @param setting the key and value that named it, for the refusal ({@code BRACE_CHAOS_X_FAULT=…})
   * @param chaosName the name the fault injection is configured under
   * @param callName the call it is injected into
   * @param throwsTypes what the call's method declares
   * @param factories the declared exceptions generated code makes, each with its constructor
   * @param loaders where to look for a class the factories do not have, in order (null entries are skipped)
   * @return the checked fault type
   * @throws ConfigurationException tagged {@code [brace:chaos-fault]}, naming the setting, when the
   *     class cannot be loaded or made, or the method cannot throw it
   */
  public static FaultType of(String className, String setting, String chaosName, String callName,
      List<Class<? extends Throwable>> throwsTypes, Map<Class<? extends Throwable>, Function<String, ? extends Throwable>> factories,
      ClassLoader... loaders) {
    for (Map.Entry<Class<? extends Throwable>, Function<String, ? extends Throwable>> known : factories.entrySet()) {
      if (known.getKey().getName().equals(className)) {
        return new FaultType(known.getKey(), known.getValue());
      }
    }
    return of(className, setting, chaosName, callName, throwsTypes, loaders);
  }

  /**
   * @param className the configured class
   * @param setting the key and value that named it, for the refusal ({@code BRACE_CHAOS_X_FAULT=…})
   * @param chaosName the name the fault injection is configured under
   * @param callName the call it is injected into
   * @param throwsTypes what the call's method declares
   * @param loaders where to look for the class, in order (null entries are skipped)
   * @return the checked fault type
   * @throws ConfigurationException tagged {@code [brace:chaos-fault]}, naming the setting, when the
   *     class cannot be loaded or made, or the method cannot throw it
   */
  public static FaultType of(String className, String setting, String chaosName, String callName,
      List<Class<? extends Throwable>> throwsTypes, ClassLoader... loaders) {
    Class<?> found = load(className, loaders);
    String problem = null;
    Constructor<? extends Throwable> constructor = null;
    if (found == null) {
      problem = "no class " + className + " can be loaded (through the thread's context class loader, the call's, then"
          + " Brace's); in a native image, a class named only in configuration is there"
          + " only when the image's reachability metadata registers it with its String constructor";
    } else if (!Throwable.class.isAssignableFrom(found)) {
      problem = className + " is not an exception (not a Throwable)";
    } else if (found.isInterface() || Modifier.isAbstract(found.getModifiers())) {
      problem = className + " is abstract; name a concrete class";
    } else if (!Modifier.isPublic(found.getModifiers())) {
      problem = className + " is not public";
    } else if (!unchecked(found) && throwsTypes.stream().noneMatch(declared -> declared.isAssignableFrom(found))) {
      problem = className + " is a checked exception the method does not declare (it declares "
          + (throwsTypes.isEmpty() ? "none" : throwsTypes.stream().map(Class::getName).collect(Collectors.joining(", ")))
          + "); name one it declares, a subclass of one, or an unchecked exception";
    } else {
      try {
        constructor = found.asSubclass(Throwable.class).getConstructor(String.class);
        constructor.newInstance("a trial of the injected fault");
      } catch (NoSuchMethodException noStringConstructor) {
        problem = className + " has no public constructor taking a String (the message)";
      } catch (InvocationTargetException thrown) {
        problem = className + "(String) threw " + thrown.getCause();
      } catch (ReflectiveOperationException | RuntimeException unmakeable) {
        problem = className + " cannot be made: " + unmakeable;
      }
    }
    if (problem != null) {
      throw new ConfigurationException(Message.CHAOS_FAULT.format(setting, chaosName, callName, problem));
    }
    return new FaultType(constructor.getDeclaringClass(), reflectively(constructor));
  }

  private static boolean unchecked(Class<?> type) {
    return RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type);
  }

  private static Class<?> load(String className, ClassLoader... loaders) {
    for (ClassLoader loader : loaders) {
      if (loader == null) {
        continue;
      }
      try {
        return Class.forName(className, false, loader);
      } catch (ClassNotFoundException | LinkageError notHere) {
        // The next loader may have it.
      }
    }
    return null;
  }

  /** @return what makes the exception through its constructor, its checked exceptions wrapped */
  private static Function<String, Throwable> reflectively(Constructor<? extends Throwable> constructor) {
    return message -> {
      try {
        return constructor.newInstance(message);
      } catch (InvocationTargetException thrown) {
        throw new UndeclaredThrowableException(thrown.getCause());
      } catch (ReflectiveOperationException unmakeable) {
        throw new UndeclaredThrowableException(unmakeable);
      }
    };
  }

  /** @return the exception's class */
  public Class<? extends Throwable> type() {
    return type;
  }

  /**
   * @param message says it was injected
   * @return a new exception of this type; an {@link InjectedFaultException} carrying what went
   *     wrong should its constructor fail now where it worked when the call was resolved
   */
  Throwable make(String message) {
    try {
      return make.apply(message);
    } catch (RuntimeException unmakeable) {
      InjectedFaultException fallback = new InjectedFaultException(message);
      fallback.addSuppressed(unmakeable instanceof UndeclaredThrowableException reflective
          ? reflective.getUndeclaredThrowable() : unmakeable);
      return fallback;
    }
  }
}
