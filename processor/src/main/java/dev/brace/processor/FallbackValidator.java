package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.ElementKind;
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
 * Finds the method a {@code @Fallback} names: a default or static method of the declaring
 * interface with the call's parameters, optionally one more last {@code Throwable} parameter that
 * every {@code on} type is assignable to, returning the call's type or a subtype.
 */
final class FallbackValidator {
  private static final String STAGE = "java.util.concurrent.CompletionStage";
  private static final String MONO = "reactor.core.publisher.Mono";
  private static final String FLUX = "reactor.core.publisher.Flux";
  private static final String PUBLISHER = "org.reactivestreams.Publisher";
  private static final String FLOW = "kotlinx.coroutines.flow.Flow";
  private static final String UNIT = "kotlin.Unit";

  private final Types types;
  private final Elements elements;
  private final Report report;

  FallbackValidator(Types types, Elements elements, Report report) {
    this.types = types;
    this.elements = elements;
    this.report = report;
  }

  /**
   * @param fallback the validated {@code @Fallback}
   * @param declaringInterface the interface that declares the call (and, so, the fallback)
   * @param wrapped the wrapped interface's type, to see inherited members with its type arguments
   * @param call the call's type as a member of {@code wrapped}
   * @param returnKind how the call is driven: an asynchronous call's fallback may return a future of its
   *     value or the value, a {@code Mono} call's a {@code Mono} of it or the value, a {@code Flux}
   *     call's a {@code Flux} or another publisher of its elements
   * @param valueType for an asynchronous or reactive call, the type of its value or elements
   * @param callDescription the call name, for messages
   * @return the fallback, or empty after reporting why not
   */
  Optional<FallbackModel> validate(
      PatternModel fallback,
      TypeElement declaringInterface,
      DeclaredType wrapped,
      ExecutableType call,
      ReturnKind returnKind,
      Optional<TypeMirror> valueType,
      String callDescription) {
    AnnotationSite site = fallback.site();
    String name = (String) site.value("method");
    List<ExecutableElement> methods = interfaceMethods(declaringInterface);
    List<ExecutableElement> named =
        methods.stream().filter(method -> method.getSimpleName().contentEquals(name)).toList();
    if (named.isEmpty()) {
      String candidates =
          methods.stream()
              .filter(method -> isCallable(method))
              .map(method -> method.getSimpleName().toString())
              .distinct()
              .collect(Collectors.joining(", "));
      report.error(site, "method", Message.FALLBACK_MISSING, name, callDescription,
          Naming.interfaceName(declaringInterface), name, candidates.isEmpty() ? "(none)" : candidates);
      return Optional.empty();
    }
    // A suspend function's continuation is the call's own, not an argument: a suspend call's
    // arguments are its parameters but the last, and a suspend fallback's likewise.
    boolean coroutine = returnKind == ReturnKind.SUSPEND || returnKind == ReturnKind.FLOW;
    List<? extends TypeMirror> callArguments = arguments(call, returnKind == ReturnKind.SUSPEND);
    List<ExecutableElement> fitting = new ArrayList<>();
    for (ExecutableElement candidate : named) {
      boolean suspending = coroutine && ReturnTypeValidator.isSuspend(candidate, types);
      if (parametersFit(callArguments, arguments(memberType(wrapped, candidate), suspending))) {
        fitting.add(candidate);
      }
    }
    if (fitting.isEmpty()) {
      report.error(site, "method", Message.FALLBACK_PARAMETERS, name, callDescription, name,
          describeTypes(callArguments), describe(wrapped, named));
      return Optional.empty();
    }
    if (fitting.size() > 1) {
      report.error(site, "method", Message.FALLBACK_AMBIGUOUS, name, callDescription,
          describe(wrapped, fitting));
      return Optional.empty();
    }
    ExecutableElement chosen = fitting.get(0);
    ExecutableType chosenType = memberType(wrapped, chosen);
    String chosenDescription = describe(wrapped, List.of(chosen));
    if (!isCallable(chosen)) {
      report.error(site, "method", Message.FALLBACK_NOT_DEFAULT, name, callDescription, chosenDescription);
      return Optional.empty();
    }
    for (Kind kind : Kind.annotated()) {
      if (AnnotationSite.find(kind, chosen, elements) != null) {
        report.error(site, "method", Message.FALLBACK_ANNOTATED, name, callDescription, chosenDescription,
            kind.annotation().getSimpleName());
        return Optional.empty();
      }
    }
    boolean suspending = coroutine && ReturnTypeValidator.isSuspend(chosen, types);
    if (suspending && returnKind == ReturnKind.FLOW) {
      report.error(site, "method", Message.FALLBACK_SUSPEND_FOR_FLOW, name, callDescription, chosenDescription,
          ofValue(FLOW, valueType.orElseThrow(), false));
      return Optional.empty();
    }
    TypeMirror returned = suspending
        ? ReturnTypeValidator.continuationValue(chosenType, elements)
        : chosenType.getReturnType();
    Answer answer = suspending
        ? new Answer(returnFits(returned, valueType.orElseThrow()), true, valueType.orElseThrow().toString())
        : answer(returnKind, returned, call.getReturnType(), valueType);
    if (!answer.fits()) {
      report.error(site, "method", Message.FALLBACK_RETURN_TYPE, name, callDescription,
          chosenDescription, returned, answer.expected());
      return Optional.empty();
    }
    Optional<TypeMirror> failureType = Optional.empty();
    List<? extends TypeMirror> parameters = arguments(chosenType, suspending);
    if (parameters.size() > callArguments.size()) {
      TypeMirror failure = parameters.get(parameters.size() - 1);
      for (Setting setting : fallback.effective()) {
        if (setting.attribute().equals("on") && setting.value() instanceof Setting.Types on) {
          for (TypeMirror answered : on.types()) {
            if (!types.isAssignable(answered, failure)) {
              report.error(site, "on", Message.FALLBACK_FAILURE_TYPE, name, callDescription,
                  chosenDescription, failure, answered);
              return Optional.empty();
            }
          }
        }
      }
      failureType = Optional.of(failure);
    }
    return Optional.of(
        new FallbackModel(
            name,
            chosen.getModifiers().contains(Modifier.STATIC),
            answer.deferred(),
            returned.getKind() == TypeKind.VOID,
            (TypeElement) chosen.getEnclosingElement(),
            failureType));
  }

  /**
   * Whether a fallback's return type fits the call, and how it answers.
   *
   * @param fits whether it may answer the call
   * @param deferred whether it answers with the call's own deferred type rather than a plain value
   * @param expected what it may return, for the message when it does not fit
   */
  private record Answer(boolean fits, boolean deferred, String expected) {}

  private Answer answer(ReturnKind kind, TypeMirror returned, TypeMirror callReturn, Optional<TypeMirror> valueType) {
    switch (kind) {
      case COMPLETION_STAGE: {
        TypeMirror value = valueType.orElseThrow();
        boolean future = isA(returned, STAGE);
        boolean fits = future ? returnFits(returned, ofValue(STAGE, value, false)) : returnFits(boxed(returned), value);
        return new Answer(fits, future, callReturn + " or " + value);
      }
      case MONO: {
        TypeMirror value = valueType.orElseThrow();
        boolean mono = isA(returned, MONO);
        boolean fits = mono ? returnFits(returned, ofValue(MONO, value, true)) : returnFits(boxed(returned), value);
        return new Answer(fits, mono, callReturn + " or " + value);
      }
      case FLUX: {
        // Any publisher of the elements answers a stream: a Flux, a Mono of one element, another library's.
        TypeMirror value = valueType.orElseThrow();
        String publisher = elements.getTypeElement(PUBLISHER) != null ? PUBLISHER : FLUX;
        return new Answer(isA(returned, publisher) && returnFits(returned, ofValue(publisher, value, true)), true,
            ofValue(FLUX, value, false) + " or " + ofValue(publisher, value, false));
      }
      case SUSPEND: {
        // A plain function answers a suspend call with its value; a Kotlin Unit function is void to Java.
        TypeMirror value = valueType.orElseThrow();
        boolean fits = returned.getKind() == TypeKind.VOID
            ? value.toString().equals(UNIT)
            : returnFits(boxed(returned), value);
        return new Answer(fits, false, value + ", or a suspend function returning it");
      }
      case FLOW: {
        TypeMirror value = valueType.orElseThrow();
        return new Answer(isA(returned, FLOW) && returnFits(returned, ofValue(FLOW, value, true)), true,
            ofValue(FLOW, value, false).toString());
      }
      default:
        return new Answer(returnFits(returned, callReturn), false, callReturn.toString());
    }
  }

  /** @return whether {@code type} is {@code qualifiedName} or a subtype of it */
  private boolean isA(TypeMirror type, String qualifiedName) {
    TypeElement element = elements.getTypeElement(qualifiedName);
    return element != null && type.getKind() == TypeKind.DECLARED
        && types.isAssignable(types.erasure(type), types.erasure(element.asType()));
  }

  /** {@code Type<value>}, or {@code Type<? extends value>}: what a fallback of a deferred call may return. */
  private TypeMirror ofValue(String qualifiedName, TypeMirror value, boolean orSubtype) {
    TypeMirror argument = orSubtype ? types.getWildcardType(value, null) : value;
    return types.getDeclaredType(elements.getTypeElement(qualifiedName), argument);
  }

  private TypeMirror boxed(TypeMirror type) {
    return type.getKind().isPrimitive() ? types.boxedClass(types.getPrimitiveType(type.getKind())).asType() : type;
  }

  private List<ExecutableElement> interfaceMethods(TypeElement declaringInterface) {
    List<ExecutableElement> methods = new ArrayList<>();
    for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(declaringInterface))) {
      if (method.getEnclosingElement().getKind() == ElementKind.INTERFACE) {
        methods.add(method);
      }
    }
    return methods;
  }

  private static boolean isCallable(ExecutableElement method) {
    return !method.getModifiers().contains(Modifier.PRIVATE)
        && (method.getModifiers().contains(Modifier.DEFAULT)
            || method.getModifiers().contains(Modifier.STATIC));
  }

  private ExecutableType memberType(DeclaredType wrapped, ExecutableElement method) {
    return (ExecutableType) types.asMemberOf(wrapped, method);
  }

  /** @return the method's parameter types, without the continuation of a {@code suspend} function */
  private static List<? extends TypeMirror> arguments(ExecutableType method, boolean suspending) {
    List<? extends TypeMirror> parameters = method.getParameterTypes();
    return suspending ? parameters.subList(0, parameters.size() - 1) : parameters;
  }

  private boolean parametersFit(List<? extends TypeMirror> expected, List<? extends TypeMirror> actual) {
    if (actual.size() != expected.size() && actual.size() != expected.size() + 1) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      if (!sameType(expected.get(i), actual.get(i))) {
        return false;
      }
    }
    return actual.size() == expected.size() || isThrowable(actual.get(actual.size() - 1));
  }

  private boolean isThrowable(TypeMirror type) {
    TypeMirror throwable = elements.getTypeElement("java.lang.Throwable").asType();
    return type.getKind() == TypeKind.DECLARED && types.isAssignable(type, throwable);
  }

  /** Type variables of two generic methods are never the same type; their erasures can be. */
  private boolean sameType(TypeMirror a, TypeMirror b) {
    return types.isSameType(a, b) || types.isSameType(types.erasure(a), types.erasure(b));
  }

  private boolean returnFits(TypeMirror fallback, TypeMirror call) {
    if (call.getKind() == TypeKind.VOID || fallback.getKind() == TypeKind.VOID) {
      return call.getKind() == fallback.getKind();
    }
    return types.isAssignable(fallback, call)
        || (mentionsTypeVariable(fallback) && types.isAssignable(types.erasure(fallback), types.erasure(call)));
  }

  /** A generic fallback's type variables are never those of the call, though they stand for them. */
  private static boolean mentionsTypeVariable(TypeMirror type) {
    if (type.getKind() == TypeKind.TYPEVAR) {
      return true;
    }
    if (type.getKind() == TypeKind.ARRAY) {
      return mentionsTypeVariable(((javax.lang.model.type.ArrayType) type).getComponentType());
    }
    return type instanceof DeclaredType declared
        && declared.getTypeArguments().stream().anyMatch(FallbackValidator::mentionsTypeVariable);
  }

  private String describe(DeclaredType wrapped, List<ExecutableElement> methods) {
    return methods.stream()
        .map(method -> method.getSimpleName() + "(" + describeTypes(memberType(wrapped, method).getParameterTypes()) + ")")
        .collect(Collectors.joining(", "));
  }

  private static String describeTypes(List<? extends TypeMirror> parameterTypes) {
    return parameterTypes.stream().map(TypeMirror::toString).collect(Collectors.joining(", "));
  }
}
