package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks an {@code onResult} predicate: the method has a result, the predicate accepts it, and the
 * wrapper can create the predicate with {@code new P()}.
 */
final class ResultPredicateValidator {
  private static final String PREDICATE = "java.util.function.Predicate";

  private final Types types;
  private final Elements elements;
  private final Report report;

  ResultPredicateValidator(Types types, Elements elements, Report report) {
    this.types = types;
    this.elements = elements;
    this.report = report;
  }

  /**
   * @param pattern a pattern with a result predicate
   * @param resultType the call's return type
   * @param callDescription the call name, for messages
   * @param packageName the wrapper's package
   * @return whether the predicate is usable; when not, the problem is reported
   */
  boolean validate(PatternModel pattern, TypeMirror resultType, String callDescription, String packageName) {
    TypeMirror predicate = pattern.resultPredicate().orElseThrow();
    AnnotationSite site = pattern.site();
    String annotation = pattern.kind().annotation().getSimpleName();
    TypeElement predicateClass = (TypeElement) types.asElement(predicate);
    if (resultType.getKind() == TypeKind.VOID) {
      report.error(site, "onResult", Message.ON_RESULT_VOID, annotation, predicate, callDescription);
      return false;
    }
    if (!isCreatable(predicateClass, packageName)) {
      report.error(site, "onResult", Message.ON_RESULT_CONSTRUCTOR, annotation, predicate,
          callDescription, predicateClass.getSimpleName());
      return false;
    }
    Optional<TypeMirror> tested = testedType(predicate);
    TypeMirror result = boxed(resultType);
    if (tested.isPresent() && !accepts(tested.get(), result)) {
      report.error(site, "onResult", Message.ON_RESULT_TYPE, annotation, predicate, callDescription,
          tested.get(), result);
      return false;
    }
    return true;
  }

  private boolean accepts(TypeMirror tested, TypeMirror result) {
    if (tested.getKind() == TypeKind.TYPEVAR) {
      return types.isAssignable(result, types.erasure(tested));
    }
    return types.isAssignable(result, tested);
  }

  private TypeMirror boxed(TypeMirror type) {
    return type.getKind().isPrimitive() ? types.boxedClass(types.getPrimitiveType(type.getKind())).asType() : type;
  }

  /** @return the {@code X} of the {@code Predicate<X>} the class implements; empty when raw */
  private Optional<TypeMirror> testedType(TypeMirror type) {
    if (type instanceof DeclaredType declared
        && ((TypeElement) declared.asElement()).getQualifiedName().contentEquals(PREDICATE)) {
      List<? extends TypeMirror> arguments = declared.getTypeArguments();
      return arguments.isEmpty() ? Optional.empty() : Optional.of(arguments.get(0));
    }
    for (TypeMirror supertype : types.directSupertypes(type)) {
      if (types.isAssignable(types.erasure(supertype), types.erasure(predicateType()))) {
        return testedType(supertype);
      }
    }
    return Optional.empty();
  }

  private TypeMirror predicateType() {
    return elements.getTypeElement(PREDICATE).asType();
  }

  private boolean isCreatable(TypeElement type, String packageName) {
    if (type.getKind() != ElementKind.CLASS || type.getModifiers().contains(Modifier.ABSTRACT)) {
      return false;
    }
    for (Element element = type; element instanceof TypeElement; element = element.getEnclosingElement()) {
      TypeElement enclosing = (TypeElement) element;
      if (!isAccessible(enclosing, packageName)
          || (enclosing.getNestingKind() == NestingKind.MEMBER
              && !enclosing.getModifiers().contains(Modifier.STATIC)
              && enclosing.getEnclosingElement().getKind() == ElementKind.CLASS)) {
        return false;
      }
      if (enclosing.getNestingKind() == NestingKind.LOCAL || enclosing.getNestingKind() == NestingKind.ANONYMOUS) {
        return false;
      }
    }
    for (ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      if (constructor.getParameters().isEmpty() && isAccessible(constructor, packageName)) {
        return true;
      }
    }
    return false;
  }

  private boolean isAccessible(Element element, String packageName) {
    if (element.getModifiers().contains(Modifier.PUBLIC)) {
      return true;
    }
    return !element.getModifiers().contains(Modifier.PRIVATE)
        && elements.getPackageOf(element).getQualifiedName().contentEquals(packageName);
  }
}
