package dev.brace.processor;

import java.util.List;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;

/**
 * A type as source code: {@code List<? extends R>}, {@code byte[][]}, {@code String...}. Type
 * annotations are left out: the wrapper restates signatures, it does not re-annotate them.
 */
final class TypeCode {
  private TypeCode() {}

  static Code of(TypeMirror type) {
    return of(type, false);
  }

  /** @param varargs write the array as a varargs parameter's type: {@code String...} */
  static Code of(TypeMirror type, boolean varargs) {
    return switch (type.getKind()) {
      case BOOLEAN, BYTE, SHORT, INT, LONG, CHAR, FLOAT, DOUBLE, VOID -> Code.of(type.getKind().name().toLowerCase(java.util.Locale.ROOT));
      case DECLARED, ERROR -> declared((DeclaredType) type);
      case ARRAY -> Code.of("$L" + (varargs ? "..." : "[]"), of(((ArrayType) type).getComponentType()));
      case TYPEVAR -> Code.of(((TypeVariable) type).asElement().getSimpleName().toString());
      case WILDCARD -> wildcard((WildcardType) type);
      default -> throw new IllegalArgumentException("no source form for " + type.getKind() + " " + type);
    };
  }

  /**
   * {@code Map<String, V>}; an inner class of a generic class with its enclosing class's type
   * arguments: {@code Outer<String>.Inner}.
   */
  private static Code declared(DeclaredType type) {
    TypeElement element = (TypeElement) type.asElement();
    Code arguments = type.getTypeArguments().isEmpty()
        ? Code.EMPTY
        : Code.of("<$L>", Code.join(type.getTypeArguments().stream().map(TypeCode::of).toList(), ", "));
    TypeMirror enclosing = type.getEnclosingType();
    if (enclosing.getKind() == TypeKind.DECLARED && !element.getModifiers().contains(Modifier.STATIC)
        && hasTypeArguments((DeclaredType) enclosing)) {
      return Code.of("$L.$N$L", declared((DeclaredType) enclosing), element.getSimpleName(), arguments);
    }
    return Code.of("$T$L", ClassRef.of(element), arguments);
  }

  private static boolean hasTypeArguments(DeclaredType type) {
    if (!type.getTypeArguments().isEmpty()) {
      return true;
    }
    TypeMirror enclosing = type.getEnclosingType();
    return enclosing.getKind() == TypeKind.DECLARED && !type.asElement().getModifiers().contains(Modifier.STATIC)
        && hasTypeArguments((DeclaredType) enclosing);
  }

  private static Code wildcard(WildcardType type) {
    if (type.getSuperBound() != null) {
      return Code.of("? super $T", type.getSuperBound());
    }
    TypeMirror bound = type.getExtendsBound();
    return bound == null || isObject(bound) ? Code.of("?") : Code.of("? extends $T", bound);
  }

  /**
   * A type variable as its declaration writes it, with the name that the declaration brings into scope.
   *
   * @param name {@code R}
   * @param declaration {@code R extends Number & Comparable<R>}
   */
  record Variable(String name, Code declaration) {}

  /** {@code T extends Comparable<T>}: a type parameter of the interface. */
  static Variable variable(TypeParameterElement parameter) {
    return variable(parameter.getSimpleName().toString(), parameter.getBounds());
  }

  /** {@code R extends Number & Comparable<R>}: a method's type variable, its intersection bound split. */
  static Variable variable(TypeVariable variable) {
    TypeMirror upper = variable.getUpperBound();
    List<? extends TypeMirror> bounds = upper instanceof IntersectionType intersection ? intersection.getBounds() : List.of(upper);
    return variable(variable.asElement().getSimpleName().toString(), bounds);
  }

  private static Variable variable(String name, List<? extends TypeMirror> bounds) {
    List<Code> written = bounds.stream().filter(bound -> !isObject(bound)).map(TypeCode::of).toList();
    return new Variable(name, written.isEmpty() ? Code.of("$N", name) : Code.of("$N extends $L", name, Code.join(written, " & ")));
  }

  /** {@code <T extends Comparable<T>, R>}, or nothing for no type variables. */
  static Code declarations(List<Variable> variables) {
    return variables.isEmpty()
        ? Code.EMPTY
        : Code.of("<$L>", Code.join(variables.stream().map(Variable::declaration).toList(), ", "));
  }

  /** {@code Repo<T>}: the type with its own type parameters as its arguments ({@code Repo} when it has none). */
  static Code withOwnVariables(TypeElement type) {
    return Code.of("$T$L", ClassRef.of(type), arguments(type.getTypeParameters().stream().map(TypeCode::variable).toList()));
  }

  /** {@code <T, R>}: the type variables as type arguments, or nothing for none. */
  static Code arguments(List<Variable> variables) {
    return variables.isEmpty() ? Code.EMPTY : Code.of("<$N>", String.join(", ", variables.stream().map(Variable::name).toList()));
  }

  /** @return whether the type is {@code Object}, however annotated */
  static boolean isObject(TypeMirror type) {
    return type.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName().contentEquals("java.lang.Object");
  }
}
