package dev.brace.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeVariableName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.util.Types;

/**
 * Writes how a wrapper reaches its delegate from a call's arguments: three static methods that
 * switch on the method's number — one calls the delegate's method, one the fallback method, one
 * computes the keys — each case casting the arguments back from their slots. A switch per wrapper
 * rather than a lambda per method, because a lambda is a method and an invokedynamic of its own
 * for {@code javac} to make, and most of what the processor costs a build is compiling what it
 * writes. A method with type parameters of its own reaches the delegate through a static helper
 * that declares them, so its arguments are cast to their own types.
 */
final class DispatchWriter {
  static final ClassName ARGUMENTS = ClassName.get("dev.brace.runtime.support", "Arguments");
  static final ClassName CALL_KEYS = ClassName.get("dev.brace.runtime.support", "CallKeys");
  private static final ClassName COMPLETABLE_FUTURE = ClassName.get("java.util.concurrent", "CompletableFuture");
  private static final ClassName REACTOR_CALLS = ClassName.get("dev.brace.reactor", "ReactorCalls");
  static final ClassName COROUTINE_CALLS = ClassName.get("dev.brace.kotlin", "CoroutineCalls");
  private static final ClassName UNIT = ClassName.get("kotlin", "Unit");
  static final AnnotationSpec UNCHECKED = AnnotationSpec.builder(SuppressWarnings.class)
      .addMember("value", "{$S, $S}", "unchecked", "rawtypes")
      .build();

  private final Types types;
  private final TypeElement iface;
  private final ClassName wrapper;
  private final Set<String> methodNames;
  private final CodeBlock.Builder invokeCases = CodeBlock.builder();
  private final CodeBlock.Builder fallbackCases = CodeBlock.builder();
  /** Keyed methods, rendered last: the keys method's parameter names must differ from all their parameters'. */
  private final List<KeyedMethod> keyed = new ArrayList<>();
  private final List<MethodSpec> helpers = new ArrayList<>();
  private boolean anyFallback;
  private boolean raw;

  private record KeyedMethod(int number, MethodModel method, ExecutableType type, ArgumentSlots slots, CodeBlock expression) {}

  /**
   * @param methodNames the wrapper's method names so far; the dispatch and helper methods take
   *     names no other method has
   */
  DispatchWriter(Types types, TypeElement iface, ClassName wrapper, Set<String> methodNames) {
    this.types = types;
    this.iface = iface;
    this.wrapper = wrapper;
    this.methodNames = methodNames;
    this.raw = !iface.getTypeParameters().isEmpty();
  }

  /** The names the wrapper's static fields give the three dispatch methods. */
  record Names(String invoke, String fallback, String keys) {}

  /**
   * Adds one guarded method's cases.
   *
   * @param number the method's number, which its definition passes to the runtime
   * @param keys its keys expression, over its parameter names, when it has one
   */
  void add(int number, MethodModel method, ExecutableType type, ArgumentSlots slots, Optional<CodeBlock> keys) {
    boolean generic = !type.getTypeVariables().isEmpty();
    raw |= type.getParameterTypes().stream().anyMatch(parameter -> !types.isSameType(parameter, types.erasure(parameter)));
    boolean returnsVoid = type.getReturnType().getKind() == TypeKind.VOID;
    String simple = method.method().getSimpleName().toString();

    CodeBlock call = CodeBlock.of("delegate.$N($L)", simple, slots.readAll(null, generic));
    if (method.returnKind().takesContinuation()) {
      // Each attempt calls the suspend function again, with a continuation the attempt makes.
      call = suspendCall(CodeBlock.of("delegate.$N", simple), slots.names().isEmpty() ? List.of() : List.of(slots.readAll(null, generic)));
    }
    if (generic) {
      String helper = helper("invoke" + capitalized(simple), call, null, returnsVoid && !method.isAsync(), CodeBlock.of("null"), type);
      invokeCases.add("case $L:\n$>return $N(target, a, b, c, d, x, y);\n$<", number, helper);
    } else {
      invokeCases.add(caseOf(number, call, returnsVoid && !method.isAsync(), CodeBlock.of("null")));
    }

    method.fallback().ifPresent(fallback -> {
      anyFallback = true;
      List<CodeBlock> arguments = new ArrayList<>();
      if (!slots.names().isEmpty()) {
        arguments.add(slots.readAll("args", generic));
      }
      fallback.failureType().ifPresent(failureType -> arguments.add(isThrowable(failureType)
          ? CodeBlock.of("failure")
          : CodeBlock.of("($T) failure", TypeName.get(failureType))));
      CodeBlock receiver = fallback.isStatic() ? CodeBlock.of("$T", ClassName.get(fallback.declaringInterface())) : CodeBlock.of("delegate");
      CodeBlock answer = CodeBlock.of("$L.$N($L)", receiver, fallback.methodName(), CodeBlock.join(arguments, ", "));
      boolean answersUnit = false;
      if (method.returnKind().takesContinuation()) {
        if (fallback.returnsDeferred()) {
          answer = suspendCall(CodeBlock.of("$L.$N", receiver, fallback.methodName()), arguments);
        } else {
          // A plain function returning Kotlin's Unit is void to Java; the suspend call's value is Unit.
          answersUnit = fallback.returnsVoid();
        }
      } else if (method.isAsync() && !fallback.returnsDeferred()) {
        answer = CodeBlock.of("$T.completedFuture($L)", COMPLETABLE_FUTURE, answer);
      } else if (method.returnKind() == ReturnKind.MONO && !fallback.returnsDeferred()) {
        // Only the compiler knows whether the fallback method returns the value or a Mono of it.
        answer = CodeBlock.of("$T.answer($L)", REACTOR_CALLS, answer);
      }
      boolean statement = (returnsVoid && !method.isAsync()) || answersUnit;
      CodeBlock nothing = answersUnit ? CodeBlock.of("$T.INSTANCE", UNIT) : CodeBlock.of("null");
      if (generic) {
        String helper = helper("fallback" + capitalized(simple), answer, "failure", statement, nothing, type);
        fallbackCases.add("case $L:\n$>return $N(target, args, failure);\n$<", number, helper);
      } else {
        fallbackCases.add(caseOf(number, answer, statement, nothing));
      }
    });

    keys.ifPresent(expression -> keyed.add(new KeyedMethod(number, method, type, slots, expression)));
  }

  /** {@code case 1: { String userId = (String) args.a(); return CallKeys.of(…); }} */
  private CodeBlock keysCase(KeyedMethod keyed, String args) {
    Set<String> read = parametersRead(keyed.method(), keyed.slots());
    CodeBlock.Builder body = CodeBlock.builder().add("case $L: {\n$>", keyed.number());
    List<? extends TypeMirror> parameterTypes = keyed.type().getParameterTypes();
    // A suspend function's continuation is not an argument: the slots hold the others.
    for (int i = 0; i < keyed.slots().names().size(); i++) {
      String name = keyed.slots().names().get(i);
      if (read.contains(name)) {
        TypeMirror parameterType = parameterTypes.get(i);
        TypeName local = parameterType.getKind().isPrimitive() ? TypeName.get(parameterType) : TypeName.get(types.erasure(parameterType));
        body.addStatement("$T $N = $L", local, name, keyed.slots().read(i, args, false));
      }
    }
    return body.addStatement("return $L", keyed.expression()).add("$<}\n").build();
  }

  /** @return whether the dispatch casts to raw types (a generic interface, parameterized parameters) */
  boolean raw() {
    return raw;
  }

  /** @return the dispatch methods, with the names the wrapper refers to them by (null where none is needed) */
  Names names() {
    return new Names("delegateTo", anyFallback ? "fallBackTo" : null, keyed.isEmpty() ? null : "keysOf");
  }

  /** @return the three dispatch methods, as needed, then the generic helpers */
  List<MethodSpec> methods(Names names) {
    List<MethodSpec> methods = new ArrayList<>();
    TypeName delegateType = rawInterface();
    methods.add(dispatch(names.invoke(), delegateType, invokeCases.build(), false));
    if (names.fallback() != null) {
      methods.add(dispatch(names.fallback(), delegateType, fallbackCases.build(), true));
    }
    if (names.keys() != null) {
      NameAllocator allocator = new NameAllocator();
      keyed.forEach(each -> each.slots().names().forEach(name -> allocator.newName(name, each.number() + name)));
      String method = allocator.newName("method");
      String args = allocator.newName("args");
      CodeBlock.Builder cases = CodeBlock.builder();
      keyed.forEach(each -> cases.add(keysCase(each, args)));
      MethodSpec.Builder keys = MethodSpec.methodBuilder(names.keys())
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .returns(CALL_KEYS)
          .addParameter(int.class, method)
          .addParameter(ARGUMENTS, args)
          .beginControlFlow("switch ($N)", method)
          .addCode(cases.build())
          .addCode("default:\n$>throw new $T($S + $N);\n$<", IllegalArgumentException.class, "no keyed method ", method)
          .endControlFlow();
      if (raw) {
        keys.addAnnotation(UNCHECKED);
      }
      methods.add(keys.build());
    }
    methods.addAll(helpers);
    return methods;
  }

  /**
   * {@code static Object delegateTo(int method, Object target, Object a, Object b, Object c, Object d,
   * long x, long y)}, which takes the argument slots as parameters, or {@code static Object
   * fallBackTo(int method, Object target, Arguments args, Throwable failure)}.
   */
  private MethodSpec dispatch(String name, TypeName delegateType, CodeBlock cases, boolean takesFailure) {
    MethodSpec.Builder spec = MethodSpec.methodBuilder(name)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Object.class)
        .addParameter(int.class, "method")
        .addParameter(Object.class, "target");
    if (takesFailure) {
      spec.addParameter(ARGUMENTS, "args").addParameter(Throwable.class, "failure");
    } else {
      addSlotParameters(spec);
    }
    spec.addException(Throwable.class)
        .addStatement("$T delegate = ($T) target", delegateType, delegateType)
        .beginControlFlow("switch (method)")
        .addCode(cases)
        .addCode("default:\n$>throw new $T($S + method);\n$<", IllegalArgumentException.class, "no method ")
        .endControlFlow();
    if (raw) {
      spec.addAnnotation(UNCHECKED);
    }
    return spec.build();
  }

  /**
   * {@code CoroutineCalls.attempt(continuation -> delegate.item((String) a, continuation))}: a Kotlin
   * {@code suspend} function's call, made by brace-kotlin with a continuation of its own each time.
   */
  private static CodeBlock suspendCall(CodeBlock function, List<CodeBlock> arguments) {
    List<CodeBlock> all = new ArrayList<>(arguments);
    all.add(CodeBlock.of("continuation"));
    return CodeBlock.of("$T.attempt(continuation -> $L($L))", COROUTINE_CALLS, function, CodeBlock.join(all, ", "));
  }

  /**
   * {@code case 0: return delegate.item((String) args.a());}, or the call and {@code return null}
   * ({@code return Unit.INSTANCE} where a Kotlin {@code suspend} call's value is {@code Unit}).
   */
  private static CodeBlock caseOf(int number, CodeBlock call, boolean statement, CodeBlock nothing) {
    return statement
        ? CodeBlock.of("case $L:\n$>$L;\nreturn $L;\n$<", number, call, nothing)
        : CodeBlock.of("case $L:\n$>return $L;\n$<", number, call);
  }

  /** The interface, raw when it is generic: a static method cannot name its type parameters. */
  private TypeName rawInterface() {
    return ClassName.get(iface);
  }

  /**
   * A static helper that declares the interface's and the method's type parameters, so the
   * arguments are cast to their own types: {@code static <R extends Number> Object invokeMax(Object
   * target, Object a, Object b, Object c, Object d, long x, long y)}, or {@code fallbackMax(Object
   * target, Arguments args, Throwable failure)}.
   */
  private String helper(String base, CodeBlock call, String failure, boolean statement, CodeBlock nothing, ExecutableType type) {
    String name = WrapperWriter.unique(methodNames, base, "_");
    TypeName targetType = WrapperWriter.withOwnVariables(iface);
    MethodSpec.Builder spec = MethodSpec.methodBuilder(name)
        .addAnnotation(UNCHECKED)
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Object.class)
        .addParameter(Object.class, "target")
        .addException(Throwable.class);
    iface.getTypeParameters().forEach(variable -> spec.addTypeVariable(TypeVariableName.get(variable)));
    type.getTypeVariables().forEach(variable -> spec.addTypeVariable(typeVariable(variable)));
    if (failure != null) {
      spec.addParameter(ARGUMENTS, "args").addParameter(Throwable.class, failure);
    } else {
      addSlotParameters(spec);
    }
    spec.addStatement("$T delegate = ($T) target", targetType, targetType);
    if (statement) {
      spec.addStatement("$L", call).addStatement("return $L", nothing);
    } else {
      spec.addStatement("return $L", call);
    }
    helpers.add(spec.build());
    return name;
  }

  /** The argument slots as the invoker takes them: {@code Object a, Object b, Object c, Object d, long x, long y}. */
  private static void addSlotParameters(MethodSpec.Builder spec) {
    for (String reference : new String[] {"a", "b", "c", "d"}) {
      spec.addParameter(Object.class, reference);
    }
    spec.addParameter(long.class, "x").addParameter(long.class, "y");
  }

  /** @return the parameters the key templates name; every one when the stale key is all arguments */
  private static Set<String> parametersRead(MethodModel method, ArgumentSlots slots) {
    if (method.remembersResults() && method.staleKey().isEmpty()) {
      return new HashSet<>(slots.names());
    }
    Set<String> read = new HashSet<>();
    Stream.of(method.breakerKey(), method.limiterKey(), method.staleKey()).flatMap(Optional::stream)
        .flatMap(key -> key.parts().stream())
        .filter(part -> part instanceof KeyExpression.Value)
        .forEach(part -> read.add(((KeyExpression.Value) part).steps().get(0).code()));
    return read;
  }

  /** JavaPoet cannot name an intersection bound ({@code R extends Number & Comparable<R>}) itself. */
  static TypeVariableName typeVariable(TypeVariable variable) {
    TypeMirror upper = variable.getUpperBound();
    List<? extends TypeMirror> bounds = upper instanceof IntersectionType intersection ? intersection.getBounds() : List.of(upper);
    List<TypeName> names = bounds.stream()
        .filter(bound -> !bound.toString().equals("java.lang.Object"))
        .map(TypeName::get)
        .toList();
    return TypeVariableName.get(variable.asElement().getSimpleName().toString(), names.toArray(TypeName[]::new));
  }

  static boolean isThrowable(TypeMirror type) {
    return type.toString().equals("java.lang.Throwable");
  }

  private static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  // ---- keys ----

  /**
   * {@code CallKeys.of(breakerKey, limiterKey)}, when any of the call's instances is keyed; with
   * {@code @StaleIfError}, {@code CallKeys.of(breakerKey, limiterKey, staleKey)}, the stale key
   * being its template or every argument.
   */
  static Optional<CodeBlock> keys(MethodModel method) {
    CodeBlock breaker = method.breakerKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null"));
    CodeBlock limiter = method.limiterKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null"));
    if (method.remembersResults()) {
      CodeBlock stale = method.staleKey().map(key -> key(key, method.callName())).orElseGet(() -> allArguments(method));
      return Optional.of(CodeBlock.of("$T.of($L, $L, $L)", CALL_KEYS, breaker, limiter, stale));
    }
    if (method.breakerKey().isEmpty() && method.limiterKey().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(CodeBlock.of("$T.of($L, $L)", CALL_KEYS, breaker, limiter));
  }

  /**
   * {@code CallKeys.arguments(a, b)}; a lone array argument is cast to {@code Object}, so it is
   * one argument rather than the varargs array itself.
   */
  private static CodeBlock allArguments(MethodModel method) {
    List<? extends VariableElement> parameters = method.method().getParameters();
    if (method.returnKind().takesContinuation()) {
      parameters = parameters.subList(0, parameters.size() - 1);
    }
    if (parameters.size() == 1 && parameters.get(0).asType().getKind() == TypeKind.ARRAY) {
      return CodeBlock.of("$T.arguments(($T) $N)", CALL_KEYS, Object.class, parameters.get(0).getSimpleName().toString());
    }
    return CodeBlock.of("$T.arguments($L)", CALL_KEYS, CodeBlock.join(
        parameters.stream().map(parameter -> CodeBlock.of("$N", parameter.getSimpleName().toString())).toList(), ", "));
  }

  /** {@code "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations")} */
  private static CodeBlock key(KeyExpression key, String callName) {
    boolean concatenated = key.parts().size() > 1;
    List<CodeBlock> parts = new ArrayList<>();
    for (KeyExpression.Part part : key.parts()) {
      if (part instanceof KeyExpression.Literal literal) {
        parts.add(CodeBlock.of("$S", literal.text()));
      } else {
        parts.add(value((KeyExpression.Value) part, callName, concatenated));
      }
    }
    return CodeBlock.join(parts, " + ");
  }

  /**
   * {@code CallKeys.part(request.host(), "request.host", call)}, guarded so that a null {@code
   * request} is reported as {@code request}: {@code request == null ? CallKeys.part(null, "request",
   * call) : …}.
   */
  private static CodeBlock value(KeyExpression.Value value, String callName, boolean parenthesized) {
    List<KeyExpression.Step> steps = value.steps();
    List<CodeBlock> expressions = new ArrayList<>();
    CodeBlock expression = CodeBlock.of("$N", steps.get(0).code());
    expressions.add(expression);
    for (KeyExpression.Step step : steps.subList(1, steps.size())) {
      expression = CodeBlock.of("$L.$N()", expression, step.code());
      expressions.add(expression);
    }
    CodeBlock code = CodeBlock.of("$T.part($L, $S, $S)", CALL_KEYS, expression, value.path(), callName);
    boolean guarded = false;
    for (int i = steps.size() - 2; i >= 0; i--) {
      if (steps.get(i).canBeNull()) {
        code = CodeBlock.of("$L == null ? $T.part(null, $S, $S) : $L",
            expressions.get(i), CALL_KEYS, steps.get(i).path(), callName, code);
        guarded = true;
      }
    }
    return guarded && parenthesized ? CodeBlock.of("($L)", code) : code;
  }
}
