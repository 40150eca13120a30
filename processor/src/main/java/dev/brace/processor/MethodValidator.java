package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Validates one abstract method into a {@link MethodModel}: how its return type is driven
 * ({@link ReturnTypeValidator}), which patterns apply (a method-level annotation replaces the
 * declaring interface's of the same kind), their values, result predicates, key templates and the
 * fallback.
 */
final class MethodValidator {
  private final Types types;
  private final Elements elements;
  private final Report report;
  private final NameUses nameUses;
  private final PatternReader patterns;
  private final FallbackValidator fallbacks;
  private final KeyResolver keys;
  private final ResultPredicateValidator predicates;
  private final IdempotenceValidator idempotence;
  private final PatternBoundsValidator bounds;
  private final ReturnTypeValidator returns;

  MethodValidator(ProcessingEnvironment environment, Report report, NameUses nameUses) {
    this.types = environment.getTypeUtils();
    this.elements = environment.getElementUtils();
    this.report = report;
    this.nameUses = nameUses;
    this.patterns = new PatternReader(report);
    this.fallbacks = new FallbackValidator(types, elements, report);
    this.keys = new KeyResolver(types, elements, report);
    this.predicates = new ResultPredicateValidator(types, elements, report);
    this.idempotence = new IdempotenceValidator(types, elements, report);
    this.bounds = new PatternBoundsValidator(report);
    this.returns = new ReturnTypeValidator(types, elements, report);
  }

  /** @return the annotations that apply to a method, outermost first; empty when none */
  static List<AnnotationSite> sites(ExecutableElement method, Elements elements) {
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    List<AnnotationSite> sites = new ArrayList<>();
    for (Kind kind : Kind.annotated()) {
      AnnotationSite site = AnnotationSite.find(kind, method, elements);
      if (site == null) {
        site = AnnotationSite.find(kind, declaring, elements);
      }
      if (site != null) {
        sites.add(site);
      }
    }
    return sites;
  }

  /**
   * @param method an abstract method of the wrapped interface, possibly inherited
   * @param wrapped the wrapped interface's type
   * @param packageName the wrapper's package
   * @return the method, or empty after reporting why not
   */
  Optional<MethodModel> validate(ExecutableElement method, DeclaredType wrapped, String packageName) {
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    String callName = Naming.callName(declaring, method);
    List<AnnotationSite> sites = sites(method, elements);
    if (sites.isEmpty()) {
      return Optional.of(new MethodModel(
          method, callName, ReturnKind.VALUE, List.of(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false));
    }
    int problemsBefore = report.size();
    ExecutableType methodType = (ExecutableType) types.asMemberOf(wrapped, method);
    Optional<ReturnKind> returnKind = returns.kind(method, methodType.getReturnType(), callName);
    if (returnKind.isEmpty()) {
      return Optional.empty();
    }
    Optional<TypeMirror> valueType = returns.valueType(returnKind.get(), methodType);
    TypeMirror resultType = valueType.orElse(methodType.getReturnType());
    List<PatternModel> models = new ArrayList<>();
    for (AnnotationSite site : sites) {
      patterns.read(site, callName, Naming.interfaceName(declaring)).ifPresent(models::add);
    }
    Optional<FallbackModel> fallback = Optional.empty();
    Optional<KeyExpression> breakerKey = Optional.empty();
    Optional<KeyExpression> limiterKey = Optional.empty();
    Optional<KeyExpression> staleKey = Optional.empty();
    for (PatternModel pattern : models) {
      if (pattern.kind() == Kind.STALEIFERROR) {
        if (resultType.getKind() == TypeKind.VOID) {
          report.error(pattern.site(), null, Message.STALE_VOID, callName);
        } else if (!((String) pattern.site().value("key")).isEmpty()) {
          staleKey = keys.resolve(pattern, method, methodType, packageName);
        }
      }
      if (pattern.resultPredicate().isPresent()) {
        predicates.validate(pattern, resultType, callName, packageName);
      }
      if (pattern.kind().isKeyed() && !((String) pattern.site().value("key")).isEmpty()) {
        Optional<KeyExpression> key = keys.resolve(pattern, method, methodType, packageName);
        if (pattern.kind() == Kind.CIRCUITBREAKER) {
          breakerKey = key;
        } else {
          limiterKey = key;
        }
      }
      if (pattern.kind() == Kind.FALLBACK) {
        fallback = fallbacks.validate(pattern, declaring, wrapped, methodType, returnKind.get(), valueType, callName);
      }
      if (pattern.kind().scope() == Kind.Scope.SYSTEM) {
        nameUses.claim(pattern).ifPresent(first -> report.error(pattern.site(), "name",
            Message.NAME_CONFLICT, pattern.kind().annotation().getSimpleName(), callName, pattern.kind().description(),
            pattern.name(), first.where()));
      }
    }
    bounds.check(models, callName);
    returns.checkPatterns(returnKind.get(), models, callName);
    boolean notIdempotent = idempotence.isNotIdempotent(method, (TypeElement) wrapped.asElement());
    if (notIdempotent) {
      idempotence.check(models, callName);
    }
    if (report.size() > problemsBefore) {
      return Optional.empty();
    }
    return Optional.of(new MethodModel(
        method, callName, returnKind.get(), List.copyOf(models), fallback, breakerKey, limiterKey,
        criticality(method, declaring), staleKey, notIdempotent));
  }

  /**
   * @return the {@code @Criticality} level written on the method, else on its interface: a tag of
   *     the call the site fixes, passed only when written
   */
  private Optional<String> criticality(ExecutableElement method, TypeElement declaring) {
    for (javax.lang.model.element.Element owner : List.of(method, declaring)) {
      for (javax.lang.model.element.AnnotationMirror mirror : owner.getAnnotationMirrors()) {
        if (mirror.getAnnotationType().asElement().toString().equals(dev.brace.Criticality.class.getCanonicalName())) {
          return elements.getElementValuesWithDefaults(mirror).entrySet().stream()
              .filter(entry -> entry.getKey().getSimpleName().contentEquals("value"))
              .map(entry -> entry.getValue().getValue())
              .filter(javax.lang.model.element.VariableElement.class::isInstance)
              .map(constant -> ((javax.lang.model.element.VariableElement) constant).getSimpleName().toString())
              .findFirst();
        }
      }
    }
    return Optional.empty();
  }
}
