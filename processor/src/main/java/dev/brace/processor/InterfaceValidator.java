package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Validates one interface into a {@link WrapperModel}: it can be implemented from its package, its
 * default and static methods carry no Brace annotation, every abstract method (inherited ones
 * included) validates, and overloads that share a call name agree on its settings.
 */
final class InterfaceValidator {
  private final Types types;
  private final Elements elements;
  private final Report report;
  private final MethodValidator methods;

  InterfaceValidator(ProcessingEnvironment environment, Report report, NameUses nameUses) {
    this.types = environment.getTypeUtils();
    this.elements = environment.getElementUtils();
    this.report = report;
    this.methods = new MethodValidator(environment, report, nameUses);
  }

  /** @return whether the interface, its methods or its super-interfaces carry a Brace annotation */
  static boolean usesBrace(TypeElement type, Elements elements, Types types) {
    for (Kind kind : Kind.annotated()) {
      if (AnnotationSite.find(kind, type, elements) != null) {
        return true;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (AnnotationSite.find(kind, method, elements) != null) {
          return true;
        }
      }
    }
    for (TypeMirror parent : type.getInterfaces()) {
      if (parent.getKind() == TypeKind.DECLARED
          && usesBrace((TypeElement) types.asElement(parent), elements, types)) {
        return true;
      }
    }
    return false;
  }

  /** @return whether a signature refers to a type not generated yet, so the interface waits a round */
  boolean hasUnresolvedTypes(TypeElement iface) {
    for (ExecutableElement method : abstractMethods(iface)) {
      if (isError(method.getReturnType())
          || method.getParameters().stream().anyMatch(parameter -> isError(parameter.asType()))
          || method.getThrownTypes().stream().anyMatch(this::isError)) {
        return true;
      }
    }
    return iface.getInterfaces().stream().anyMatch(this::isError);
  }

  private boolean isError(TypeMirror type) {
    if (type.getKind() == TypeKind.ERROR) {
      return true;
    }
    if (type.getKind() == TypeKind.ARRAY) {
      return isError(((javax.lang.model.type.ArrayType) type).getComponentType());
    }
    return type instanceof DeclaredType declared && declared.getTypeArguments().stream().anyMatch(this::isError);
  }

  /**
   * @param iface an interface that uses Brace
   * @return the wrapper to write, or empty after reporting why not
   */
  Optional<WrapperModel> validate(TypeElement iface) {
    int problemsBefore = report.size();
    if (!Naming.isReachableFromPackage(iface)) {
      report.error(iface, Message.INACCESSIBLE_INTERFACE, Naming.interfaceName(iface));
      return Optional.empty();
    }
    checkNotOnConcreteMethods(iface);
    DeclaredType wrapped = (DeclaredType) iface.asType();
    String packageName = Naming.packageName(iface);
    List<MethodModel> models = new ArrayList<>();
    for (ExecutableElement method : abstractMethods(iface)) {
      methods.validate(method, wrapped, packageName).ifPresent(models::add);
    }
    checkOverloads(models);
    if (report.size() > problemsBefore) {
      return Optional.empty();
    }
    return Optional.of(new WrapperModel(
        iface, packageName, Naming.wrapperName(iface), Naming.isPublic(iface), List.copyOf(models)));
  }

  private void checkNotOnConcreteMethods(TypeElement iface) {
    for (ExecutableElement method : ElementFilter.methodsIn(iface.getEnclosedElements())) {
      if (method.getModifiers().contains(Modifier.ABSTRACT)) {
        continue;
      }
      for (Kind kind : Kind.annotated()) {
        AnnotationSite site = AnnotationSite.find(kind, method, elements);
        if (site != null) {
          report.error(method, site.mirror(), Message.NOT_ABSTRACT, kind.annotation().getSimpleName(), Naming.describe(method));
        }
      }
    }
  }

  /** Overloads share a call name, so their call-scoped patterns of one name must agree. */
  private void checkOverloads(List<MethodModel> models) {
    Map<String, MethodModel> firstByName = new HashMap<>();
    for (MethodModel model : models) {
      for (PatternModel pattern : model.patterns()) {
        if (pattern.kind().scope() != Kind.Scope.CALL || !pattern.name().equals(model.callName())) {
          continue;
        }
        MethodModel first = firstByName.putIfAbsent(pattern.kind() + "/" + pattern.name(), model);
        if (first == null || first.pattern(pattern.kind()).orElseThrow().effectiveSettings().equals(pattern.effectiveSettings())) {
          continue;
        }
        String advice = pattern.kind() == Kind.FALLBACK
            ? "a fallback is configured under the call name, so give the overloads the same on and ignore"
            : "give each overload its own @" + pattern.kind().annotation().getSimpleName() + "(name = \"...\")";
        report.error(pattern.site(), "name", Message.OVERLOAD_CONFLICT, pattern.kind().annotation().getSimpleName(),
            Naming.describe(model.method()), model.method().getSimpleName(), model.callName(), advice);
      }
    }
  }

  /**
   * Every abstract method of the interface, its own first in declaration order, then those of its
   * super-interfaces, each once; methods of {@code Object} are left out.
   */
  List<ExecutableElement> abstractMethods(TypeElement iface) {
    DeclaredType wrapped = (DeclaredType) iface.asType();
    List<ExecutableElement> seen = new ArrayList<>();
    List<ExecutableElement> result = new ArrayList<>();
    collect(iface, wrapped, seen, result);
    return result;
  }

  private void collect(TypeElement type, DeclaredType wrapped, List<ExecutableElement> seen, List<ExecutableElement> result) {
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (method.getModifiers().contains(Modifier.STATIC)
          || method.getModifiers().contains(Modifier.PRIVATE)
          || isObjectMethod(method)
          || isOverridden(method, wrapped, seen)) {
        continue;
      }
      seen.add(method);
      if (method.getModifiers().contains(Modifier.ABSTRACT)) {
        result.add(method);
      }
    }
    for (TypeMirror parent : type.getInterfaces()) {
      if (parent.getKind() == TypeKind.DECLARED) {
        collect((TypeElement) types.asElement(parent), wrapped, seen, result);
      }
    }
  }

  private boolean isOverridden(ExecutableElement method, DeclaredType wrapped, List<ExecutableElement> seen) {
    ExecutableType type = (ExecutableType) types.asMemberOf(wrapped, method);
    for (ExecutableElement earlier : seen) {
      if (earlier.getSimpleName().equals(method.getSimpleName())
          && types.isSubsignature((ExecutableType) types.asMemberOf(wrapped, earlier), type)) {
        return true;
      }
    }
    return false;
  }

  private boolean isObjectMethod(ExecutableElement method) {
    TypeElement object = elements.getTypeElement("java.lang.Object");
    for (ExecutableElement candidate : ElementFilter.methodsIn(object.getEnclosedElements())) {
      if (candidate.getModifiers().contains(Modifier.PUBLIC)
          && candidate.getSimpleName().equals(method.getSimpleName())
          && types.isSubsignature((ExecutableType) method.asType(), (ExecutableType) candidate.asType())) {
        return true;
      }
    }
    return false;
  }
}
