package dev.brace.processor;

import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/**
 * A class the generated code names. Kept apart from the text around it, so that {@link JavaSource}
 * decides once the whole file is known whether it is imported and written by its simple name, or
 * written qualified because another class of that simple name got there first.
 *
 * @param packageName its package, empty for the default package
 * @param simpleNames the top-level class's simple name, then each nested class's
 */
record ClassRef(String packageName, List<String> simpleNames) {

  ClassRef {
    simpleNames = List.copyOf(simpleNames);
  }

  static ClassRef of(String packageName, String... simpleNames) {
    return new ClassRef(packageName, List.of(simpleNames));
  }

  static ClassRef of(Class<?> type) {
    List<String> names = new ArrayList<>();
    for (Class<?> each = type; each != null; each = each.getEnclosingClass()) {
      names.add(0, each.getSimpleName());
    }
    return new ClassRef(type.getPackageName(), names);
  }

  static ClassRef of(TypeElement type) {
    List<String> names = new ArrayList<>();
    Element each = type;
    for (; each.getKind().isClass() || each.getKind().isInterface(); each = each.getEnclosingElement()) {
      names.add(0, each.getSimpleName().toString());
    }
    String packageName = each.getKind() == ElementKind.PACKAGE ? ((PackageElement) each).getQualifiedName().toString() : "";
    return new ClassRef(packageName, names);
  }

  ClassRef nested(String simpleName) {
    List<String> names = new ArrayList<>(simpleNames);
    names.add(simpleName);
    return new ClassRef(packageName, names);
  }

  /** @return the class this one is nested in, or null for a top-level class */
  ClassRef enclosing() {
    return simpleNames.size() == 1 ? null : new ClassRef(packageName, simpleNames.subList(0, simpleNames.size() - 1));
  }

  ClassRef topLevel() {
    return simpleNames.size() == 1 ? this : new ClassRef(packageName, simpleNames.subList(0, 1));
  }

  String simpleName() {
    return simpleNames.get(simpleNames.size() - 1);
  }

  /** @return the nested names from {@code depth} on, dotted: {@code Outer.Inner} from depth 0 */
  String simpleNamesFrom(int depth) {
    return String.join(".", simpleNames.subList(depth, simpleNames.size()));
  }

  String canonicalName() {
    return packageName.isEmpty() ? simpleNamesFrom(0) : packageName + "." + simpleNamesFrom(0);
  }

  @Override
  public String toString() {
    return canonicalName();
  }
}
