package dev.brace.processor;

import java.util.ArrayDeque;
import java.util.Deque;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/** The names the spec derives from an interface: its naming chain, the wrapper's name, call names. */
final class Naming {
  private Naming() {}

  /** @return the nesting chain without the package: {@code RecsClient}, {@code Outer.Inner} */
  static String interfaceName(TypeElement type) {
    return String.join(".", chain(type));
  }

  /** @return {@code Resilient} + the chain joined by {@code _}: {@code ResilientOuter_Inner} */
  static String wrapperName(TypeElement type) {
    return "Resilient" + String.join("_", chain(type));
  }

  /** @return {@code Interface.method} */
  static String callName(TypeElement declaringInterface, Element method) {
    return interfaceName(declaringInterface) + "." + method.getSimpleName();
  }

  /** @return an interface's naming chain, a method's call name, for messages */
  static String describe(Element element) {
    if (element instanceof TypeElement type) {
      return interfaceName(type);
    }
    if (element.getEnclosingElement() instanceof TypeElement type) {
      return callName(type, element);
    }
    return element.getSimpleName().toString();
  }

  static String packageName(TypeElement type) {
    Element element = type;
    while (!(element instanceof PackageElement)) {
      element = element.getEnclosingElement();
    }
    return ((PackageElement) element).getQualifiedName().toString();
  }

  /** @return whether code outside the package can see the interface */
  static boolean isPublic(TypeElement type) {
    for (Element element = type; element instanceof TypeElement; element = element.getEnclosingElement()) {
      if (!element.getModifiers().contains(Modifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  /** @return whether a top-level class of the same package can implement the interface */
  static boolean isReachableFromPackage(TypeElement type) {
    Element element = type;
    while (element instanceof TypeElement) {
      if (element.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
      element = element.getEnclosingElement();
    }
    return element.getKind() == ElementKind.PACKAGE;
  }

  private static Deque<String> chain(TypeElement type) {
    Deque<String> names = new ArrayDeque<>();
    for (Element element = type; element instanceof TypeElement; element = element.getEnclosingElement()) {
      names.addFirst(element.getSimpleName().toString());
    }
    return names;
  }
}
