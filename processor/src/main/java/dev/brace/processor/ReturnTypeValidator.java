package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Decides from what an annotated method returns how its wrapper drives the call ({@link
 * ReturnKind}), and refuses what no wrapper can protect: a deferred type, whose request runs after
 * the method has returned — when the caller executes it, subscribes to it or waits for it —
 * outside the wrapper, where no pattern sees it. Wrapping it would protect only the creation of
 * the request object, silently. Kotlin's {@code suspend} functions and {@code Flow} methods are
 * refused the same way while {@code brace-kotlin} is absent: a {@code suspend} function returns
 * at its first suspension and finishes through its continuation, and a {@code Flow} runs when it
 * is collected, both past a wrapper that knows neither.
 *
 * <p>Types are recognised by qualified name anywhere in the return type's hierarchy, so none of
 * the libraries need be on the class path of the compilation, and a subtype counts as the type it
 * extends.
 */
final class ReturnTypeValidator {
  /** brace-reactor's entry class: on the class path, Mono and Flux methods can be protected. */
  static final String REACTOR_SUPPORT = "dev.brace.reactor.ReactorCalls";
  /** The artifact that protects Mono and Flux methods, as a user adds it. */
  static final String REACTOR_ARTIFACT = "dev.brace:brace-reactor";

  /** The artifact that protects Kotlin's {@code suspend} functions and {@code Flow} methods. */
  static final String KOTLIN_ARTIFACT = "dev.brace:brace-kotlin";
  /** brace-kotlin's entry class: on the class path, {@code suspend} and {@code Flow} methods can be protected. */
  static final String KOTLIN_SUPPORT = "dev.brace.kotlin.CoroutineCalls";

  /** The last parameter kapt gives a {@code suspend} function: its caller's continuation. */
  private static final String CONTINUATION = "kotlin.coroutines.Continuation";
  private static final String FLOW = "kotlinx.coroutines.flow.Flow";
  private static final String COMPLETION_STAGE = "java.util.concurrent.CompletionStage";
  private static final String COMPLETABLE_FUTURE = "java.util.concurrent.CompletableFuture";
  private static final String MONO = "reactor.core.publisher.Mono";
  private static final String FLUX = "reactor.core.publisher.Flux";

  /**
   * The deferred types Brace cannot observe without blocking or without a library it does not
   * have, a more specific one before a type it extends, so that a message names the most specific.
   */
  private static final List<String> DEFERRED = List.of(
      "retrofit2.Call",
      "com.google.common.util.concurrent.ListenableFuture",
      "java.util.concurrent.Future",
      "io.vertx.core.Future",
      "io.reactivex.Single",
      "io.reactivex.Maybe",
      "io.reactivex.Completable",
      "io.reactivex.Observable",
      "io.reactivex.Flowable",
      "io.reactivex.rxjava3.core.Single",
      "io.reactivex.rxjava3.core.Maybe",
      "io.reactivex.rxjava3.core.Completable",
      "io.reactivex.rxjava3.core.Observable",
      "io.reactivex.rxjava3.core.Flowable",
      "io.smallrye.mutiny.Uni",
      "io.smallrye.mutiny.Multi",
      "kotlinx.coroutines.Deferred",
      MONO,
      FLUX,
      "org.reactivestreams.Publisher",
      "java.util.concurrent.Flow.Publisher");

  private final Types types;
  private final Elements elements;
  private final Report report;

  ReturnTypeValidator(Types types, Elements elements, Report report) {
    this.types = types;
    this.elements = elements;
    this.report = report;
  }

  /**
   * @param method the annotated method
   * @param returned its return type as a member of the wrapped interface
   * @param callName the call, for messages
   * @return how the wrapper drives it, or empty after reporting why it cannot be wrapped at all;
   *     a {@code Mono} or {@code Flux} without brace-reactor, and a {@code suspend} function or a
   *     {@code Flow} without brace-kotlin, is reported and still returned, so that the method's
   *     other mistakes are reported with it
   */
  Optional<ReturnKind> kind(ExecutableElement method, TypeMirror returned, String callName) {
    Set<String> hierarchy = hierarchy(returned);
    boolean kotlinSupported = elements.getTypeElement(KOTLIN_SUPPORT) != null;
    if (isSuspend(method, types)) {
      if (!kotlinSupported) {
        report.error(method, Message.KOTLIN_MISSING, callName, "is a Kotlin suspend function", KOTLIN_ARTIFACT,
            "the suspension marker at its first suspension point");
      }
      return Optional.of(ReturnKind.SUSPEND);
    }
    if (hierarchy.contains(FLOW)) {
      if (!kotlinSupported) {
        report.error(method, Message.KOTLIN_MISSING, callName, "returns " + returned
            + (hierarchy.iterator().next().equals(FLOW) ? "" : ", a " + FLOW), KOTLIN_ARTIFACT,
            "a cold flow that is collected");
      }
      return Optional.of(ReturnKind.FLOW);
    }
    if (hierarchy.contains(COMPLETION_STAGE)) {
      if (futureValue(returned).isEmpty()) {
        report.error(method, Message.ASYNC_UNSUPPORTED, callName, returned);
        return Optional.empty();
      }
      return Optional.of(ReturnKind.COMPLETION_STAGE);
    }
    String name = hierarchy.isEmpty() ? "" : hierarchy.iterator().next();
    if (name.equals(MONO) || name.equals(FLUX)) {
      if (elements.getTypeElement(REACTOR_SUPPORT) == null) {
        report.error(method, Message.REACTOR_MISSING, callName, returned, REACTOR_ARTIFACT);
      }
      return Optional.of(name.equals(MONO) ? ReturnKind.MONO : ReturnKind.FLUX);
    }
    for (String deferred : DEFERRED) {
      if (hierarchy.contains(deferred)) {
        report.error(method, Message.DEFERRED_RETURN_TYPE, callName, returned,
            deferred.equals(name) ? "" : ", a " + deferred, REACTOR_ARTIFACT);
        return Optional.empty();
      }
    }
    return Optional.of(ReturnKind.VALUE);
  }

  /**
   * @return whether the method is a Kotlin {@code suspend} function as Java sees it (kapt's stubs
   *     included): its last parameter is the caller's {@code kotlin.coroutines.Continuation}, and
   *     what it returns at once may be only the marker that it suspended
   */
  static boolean isSuspend(ExecutableElement method, Types types) {
    List<? extends VariableElement> parameters = method.getParameters();
    if (parameters.isEmpty()) {
      return false;
    }
    TypeMirror last = types.erasure(parameters.get(parameters.size() - 1).asType());
    return last.getKind() == TypeKind.DECLARED
        && ((TypeElement) ((DeclaredType) last).asElement()).getQualifiedName().contentEquals(CONTINUATION);
  }

  /**
   * Refuses the patterns a stream cannot have: a hedge takes the first whole answer of several
   * attempts, stale answers remember one result per key and a result predicate tests one result,
   * but a {@code Flux} or a {@code Flow} has no one answer.
   *
   * @param kind what the method returns
   * @param patterns its patterns
   * @param callName the call, for messages
   */
  void checkPatterns(ReturnKind kind, List<PatternModel> patterns, String callName) {
    if (!kind.isStream()) {
      return;
    }
    Message refusal = kind == ReturnKind.FLUX ? Message.FLUX_PATTERN_UNSUPPORTED : Message.FLOW_PATTERN_UNSUPPORTED;
    for (PatternModel pattern : patterns) {
      if (pattern.resultPredicate().isPresent()) {
        report.error(pattern.site(), "onResult", refusal,
            pattern.kind().annotation().getSimpleName() + "(onResult)", callName,
            "a result predicate tests one result, and a stream has none");
      }
      if (pattern.kind() == Kind.HEDGE || pattern.kind() == Kind.STALEIFERROR) {
        report.error(pattern.site(), null, refusal,
            pattern.kind().annotation().getSimpleName(), callName,
            pattern.kind() == Kind.HEDGE
                ? "a hedge answers with the first whole answer of several attempts, and the elements of two streams cannot be taken back once emitted"
                : "stale answers remember one result per key, and a stream has none");
      }
    }
  }

  /**
   * @param kind how the call is driven
   * @param method the method's type as a member of the wrapped interface
   * @return the type of the call's value, which results predicates test and a fallback may return
   *     plainly: the {@code T} of a {@code CompletionStage<T>}, a {@code Mono<T>} or a {@code
   *     suspend} function's continuation, the element type of a {@code Flux<T>} or a {@code
   *     Flow<T>}; empty for a plain value, which is its own
   */
  Optional<TypeMirror> valueType(ReturnKind kind, ExecutableType method) {
    TypeMirror type = method.getReturnType();
    switch (kind) {
      case SUSPEND:
        return Optional.of(continuationValue(method, elements));
      case COMPLETION_STAGE:
        return futureValue(type);
      case MONO:
        return Optional.of(reactiveValue(type, MONO));
      case FLUX:
        return Optional.of(reactiveValue(type, FLUX));
      case FLOW:
        return Optional.of(reactiveValue(type, FLOW));
      default:
        return Optional.empty();
    }
  }

  /**
   * @param method a Kotlin {@code suspend} function as Java sees it
   * @return the {@code T} of its {@code Continuation<? super T>}: the call's value ({@code
   *     kotlin.Unit} for a function that returns nothing); {@code Object} for a raw continuation
   */
  static TypeMirror continuationValue(ExecutableType method, Elements elements) {
    List<? extends TypeMirror> parameters = method.getParameterTypes();
    TypeMirror last = parameters.get(parameters.size() - 1);
    if (last.getKind() == TypeKind.DECLARED && ((DeclaredType) last).getTypeArguments().size() == 1) {
      TypeMirror argument = ((DeclaredType) last).getTypeArguments().get(0);
      if (argument.getKind() == TypeKind.WILDCARD) {
        TypeMirror bound = ((javax.lang.model.type.WildcardType) argument).getSuperBound();
        if (bound != null) {
          return bound;
        }
      } else {
        return argument;
      }
    }
    return elements.getTypeElement("java.lang.Object").asType();
  }

  /**
   * @return the type argument of {@code publisher} (Mono, Flux or Flow) as {@code type} extends it: a
   *     wildcard's bound, {@code Object} for a raw type or an unbounded wildcard
   */
  private TypeMirror reactiveValue(TypeMirror type, String publisher) {
    TypeMirror object = elements.getTypeElement("java.lang.Object").asType();
    Deque<TypeMirror> pending = new ArrayDeque<>(List.of(type.getKind() == TypeKind.TYPEVAR ? types.erasure(type) : type));
    while (!pending.isEmpty()) {
      TypeMirror next = pending.removeFirst();
      if (next.getKind() != TypeKind.DECLARED) {
        continue;
      }
      DeclaredType declared = (DeclaredType) next;
      if (((TypeElement) declared.asElement()).getQualifiedName().contentEquals(publisher)) {
        if (declared.getTypeArguments().size() != 1) {
          return object;
        }
        TypeMirror argument = declared.getTypeArguments().get(0);
        if (argument.getKind() == TypeKind.WILDCARD) {
          TypeMirror bound = ((javax.lang.model.type.WildcardType) argument).getExtendsBound();
          return bound == null ? object : bound;
        }
        return argument;
      }
      pending.addAll(types.directSupertypes(next));
    }
    return object;
  }

  /**
   * @return the {@code T} of {@code CompletionStage<T>} or {@code CompletableFuture<T>}; empty for
   *     another future type, a raw one or a wildcard, which the asynchronous driver cannot return
   */
  Optional<TypeMirror> futureValue(TypeMirror type) {
    if (type.getKind() != TypeKind.DECLARED) {
      return Optional.empty();
    }
    DeclaredType declared = (DeclaredType) type;
    String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
    boolean supported = name.equals(COMPLETION_STAGE) || name.equals(COMPLETABLE_FUTURE);
    if (!supported || declared.getTypeArguments().size() != 1
        || declared.getTypeArguments().get(0).getKind() == TypeKind.WILDCARD) {
      return Optional.empty();
    }
    return Optional.of(declared.getTypeArguments().get(0));
  }

  /**
   * @return the qualified names of the type (first) and of every type it extends or implements;
   *     empty for a primitive, {@code void} or an array. A type variable stands for its bound.
   */
  private Set<String> hierarchy(TypeMirror type) {
    Set<String> names = new LinkedHashSet<>();
    TypeMirror start = type.getKind() == TypeKind.TYPEVAR ? types.erasure(type) : type;
    if (start.getKind() != TypeKind.DECLARED) {
      return names;
    }
    Deque<TypeMirror> pending = new ArrayDeque<>(List.of(start));
    while (!pending.isEmpty()) {
      TypeMirror next = pending.removeFirst();
      if (next.getKind() != TypeKind.DECLARED) {
        continue;
      }
      String name = ((TypeElement) ((DeclaredType) next).asElement()).getQualifiedName().toString();
      if (names.add(name)) {
        pending.addAll(types.directSupertypes(next));
      }
    }
    return names;
  }
}
