package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Resolves a key template against a method: {@code {param}} must name a parameter and each
 * {@code .prop} an accessor {@code prop()} or {@code getProp()} of the type before it.
 */
final class KeyResolver {
  private final Types types;
  private final Elements elements;
  private final Report report;

  KeyResolver(Types types, Elements elements, Report report) {
    this.types = types;
    this.elements = elements;
    this.report = report;
  }

  /**
   * @param pattern a keyed pattern with a non-empty {@code key}
   * @param method the call
   * @param methodType its type as a member of the wrapped interface
   * @param packageName the wrapper's package, for accessibility
   * @return the key, or empty after reporting why not
   */
  Optional<KeyExpression> resolve(
      PatternModel pattern, ExecutableElement method, ExecutableType methodType, String packageName) {
    AnnotationSite site = pattern.site();
    String template = (String) site.value("key");
    String where = Naming.describe(method);
    String annotation = pattern.kind().annotation().getSimpleName();
    List<KeyTemplateParser.Piece> pieces;
    try {
      pieces = KeyTemplateParser.parse(template);
    } catch (KeyTemplateParser.MalformedKeyException malformed) {
      report.error(site, "key", Message.KEY_MALFORMED, annotation, template, where, malformed.getMessage());
      return Optional.empty();
    }
    List<KeyExpression.Part> parts = new ArrayList<>();
    for (KeyTemplateParser.Piece piece : pieces) {
      if (piece.literal() != null) {
        parts.add(new KeyExpression.Literal(piece.literal()));
        continue;
      }
      List<String> names = piece.path();
      int parameter = parameterIndex(method, names.get(0));
      if (parameter < 0) {
        String parameters =
            method.getParameters().stream()
                .map(variable -> variable.getSimpleName().toString())
                .collect(Collectors.joining(", "));
        report.error(site, "key", Message.KEY_UNKNOWN_PARAMETER, annotation, template, where,
            names.get(0), parameters.isEmpty() ? "(none)" : parameters);
        return Optional.empty();
      }
      TypeMirror type = methodType.getParameterTypes().get(parameter);
      List<KeyExpression.Step> steps = new ArrayList<>();
      String path = names.get(0);
      steps.add(new KeyExpression.Step(path, path, !type.getKind().isPrimitive()));
      for (String property : names.subList(1, names.size())) {
        Optional<ExecutableElement> accessor = accessor(type, property, packageName);
        if (accessor.isEmpty()) {
          report.error(site, "key", Message.KEY_UNKNOWN_PROPERTY, annotation, template, where,
              String.join(".", names), type, property, "get" + capitalized(property));
          return Optional.empty();
        }
        type = ((ExecutableType) types.asMemberOf(declared(type), accessor.get())).getReturnType();
        path = path + "." + property;
        steps.add(new KeyExpression.Step(
            path, accessor.get().getSimpleName().toString(), !type.getKind().isPrimitive()));
      }
      parts.add(new KeyExpression.Value(String.join(".", names), List.copyOf(steps)));
    }
    return Optional.of(new KeyExpression(List.copyOf(parts)));
  }

  private static int parameterIndex(ExecutableElement method, String name) {
    List<? extends VariableElement> parameters = method.getParameters();
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).getSimpleName().contentEquals(name)) {
        return i;
      }
    }
    return -1;
  }

  private DeclaredType declared(TypeMirror type) {
    TypeMirror current = type;
    while (current instanceof TypeVariable variable) {
      current = variable.getUpperBound();
    }
    return current.getKind() == TypeKind.DECLARED ? (DeclaredType) current : null;
  }

  private Optional<ExecutableElement> accessor(TypeMirror type, String property, String packageName) {
    DeclaredType declared = declared(type);
    if (declared == null) {
      return Optional.empty();
    }
    TypeElement element = (TypeElement) declared.asElement();
    List<ExecutableElement> methods = ElementFilter.methodsIn(elements.getAllMembers(element));
    for (String name : List.of(property, "get" + capitalized(property))) {
      for (ExecutableElement method : methods) {
        if (method.getSimpleName().contentEquals(name)
            && method.getParameters().isEmpty()
            && method.getReturnType().getKind() != TypeKind.VOID
            && !method.getModifiers().contains(Modifier.STATIC)
            && isAccessible(method, packageName)) {
          return Optional.of(method);
        }
      }
    }
    return Optional.empty();
  }

  private boolean isAccessible(ExecutableElement method, String packageName) {
    if (method.getModifiers().contains(Modifier.PUBLIC)) {
      return true;
    }
    if (method.getModifiers().contains(Modifier.PRIVATE)) {
      return false;
    }
    PackageElement owner = elements.getPackageOf(method);
    return owner.getQualifiedName().contentEquals(packageName);
  }

  private static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
