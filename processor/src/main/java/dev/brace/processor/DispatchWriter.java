package dev.brace.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
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
  static final ClassRef ARGUMENTS = ClassRef.of("dev.brace.runtime.support", "Arguments");
  static final ClassRef CALL_KEYS = ClassRef.of("dev.brace.runtime.support", "CallKeys");
  private static final ClassRef COMPLETABLE_FUTURE = ClassRef.of("java.util.concurrent", "CompletableFuture");
  private static final ClassRef REACTOR_CALLS = ClassRef.of("dev.brace.reactor", "ReactorCalls");
  private static final String UNCHECKED = "@$T({$S, $S})";

  private final Types types;
  private final TypeElement iface;
  private final ClassRef wrapper;
  private final Set<String> methodNames;
  /** Each writes one {@code case} of a dispatch method's switch. */
  private final List<Consumer<JavaSource>> invokeCases = new ArrayList<>();
  private final List<Consumer<JavaSource>> fallbackCases = new ArrayList<>();
  /** Keyed methods, written last: the keys method's parameter names must differ from all their parameters'. */
  private final List<KeyedMethod> keyed = new ArrayList<>();
  private final List<Consumer<JavaSource>> helpers = new ArrayList<>();
  private boolean anyFallback;
  /** Whether the dispatch casts to raw types (a generic interface, parameterized parameters), and so suppresses the warnings. */
  private boolean raw;

  private record KeyedMethod(int number, MethodModel method, ExecutableType type, ArgumentSlots slots, Code expression) {}

  /**
   * @param methodNames the wrapper's method names so far; the dispatch and helper methods take
   *     names no other method has
   */
  DispatchWriter(Types types, TypeElement iface, ClassRef wrapper, Set<String> methodNames) {
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
  void add(int number, MethodModel method, ExecutableType type, ArgumentSlots slots, Optional<Code> keys) {
    boolean generic = !type.getTypeVariables().isEmpty();
    raw |= type.getParameterTypes().stream().anyMatch(parameter -> !types.isSameType(parameter, types.erasure(parameter)));
    boolean returnsVoid = type.getReturnType().getKind() == TypeKind.VOID;
    String simple = method.method().getSimpleName().toString();

    Code call = Code.of("delegate.$N($L)", simple, slots.readAll(null, generic));
    if (generic) {
      String helper = helper("invoke" + capitalized(simple), call, null, returnsVoid && !method.isAsync(), type);
      invokeCases.add(source -> caseOf(source, number, Code.of("$N(target, a, b, c, d, x, y)", helper), false));
    } else {
      invokeCases.add(source -> caseOf(source, number, call, returnsVoid && !method.isAsync()));
    }

    method.fallback().ifPresent(fallback -> {
      anyFallback = true;
      List<Code> arguments = new ArrayList<>();
      if (!slots.names().isEmpty()) {
        arguments.add(slots.readAll("args", generic));
      }
      fallback.failureType().ifPresent(failureType -> arguments.add(isThrowable(failureType)
          ? Code.of("failure")
          : Code.of("($T) failure", failureType)));
      Code receiver = fallback.isStatic() ? Code.of("$T", ClassRef.of(fallback.declaringInterface())) : Code.of("delegate");
      Code answer = Code.of("$L.$N($L)", receiver, fallback.methodName(), Code.join(arguments, ", "));
      if (method.isAsync() && !fallback.returnsDeferred()) {
        answer = Code.of("$T.completedFuture($L)", COMPLETABLE_FUTURE, answer);
      } else if (method.returnKind() == ReturnKind.MONO && !fallback.returnsDeferred()) {
        // Only the compiler knows whether the fallback method returns the value or a Mono of it.
        answer = Code.of("$T.answer($L)", REACTOR_CALLS, answer);
      }
      boolean statement = returnsVoid && !method.isAsync();
      if (generic) {
        String helper = helper("fallback" + capitalized(simple), answer, "failure", statement, type);
        fallbackCases.add(source -> caseOf(source, number, Code.of("$N(target, args, failure)", helper), false));
      } else {
        Code written = answer;
        fallbackCases.add(source -> caseOf(source, number, written, statement));
      }
    });

    keys.ifPresent(expression -> keyed.add(new KeyedMethod(number, method, type, slots, expression)));
  }

  /** {@code case 1: { String userId = (String) args.a(); return CallKeys.of(…); }} */
  private void keysCase(JavaSource source, KeyedMethod keyed, String args) {
    Set<String> read = parametersRead(keyed.method(), keyed.slots());
    source.beginBlock("case $L:", keyed.number());
    List<? extends TypeMirror> parameterTypes = keyed.type().getParameterTypes();
    for (int i = 0; i < parameterTypes.size(); i++) {
      String name = keyed.slots().names().get(i);
      if (read.contains(name)) {
        TypeMirror parameterType = parameterTypes.get(i);
        TypeMirror local = parameterType.getKind().isPrimitive() ? parameterType : types.erasure(parameterType);
        source.statement("$T $N = $L", local, name, keyed.slots().read(i, args, false));
      }
    }
    source.statement("return $L", keyed.expression()).endBlock();
  }

  /** @return the dispatch methods, with the names the wrapper refers to them by (null where none is needed) */
  Names names() {
    return new Names("delegateTo", anyFallback ? "fallBackTo" : null, keyed.isEmpty() ? null : "keysOf");
  }

  /** Writes the three dispatch methods, as needed, then the generic helpers, each after a blank line. */
  void write(JavaSource source, Names names) {
    ClassRef delegateType = ClassRef.of(iface);
    dispatch(source, names.invoke(), delegateType, invokeCases, false);
    if (names.fallback() != null) {
      dispatch(source, names.fallback(), delegateType, fallbackCases, true);
    }
    if (names.keys() != null) {
      // Every parameter name is taken, and a name repeated across methods takes one with an
      // underscore as well, as the wrappers have always been named (their names must not change).
      Set<String> taken = new HashSet<>();
      keyed.forEach(each -> each.slots().names().forEach(name -> unusedName(taken, name)));
      String method = unusedName(taken, "method");
      String args = unusedName(taken, "args");
      JavaSource.Method keys = source.blankLine().method("private static", names.keys())
          .returns(CALL_KEYS)
          .parameter(int.class, method)
          .parameter(ARGUMENTS, args);
      if (raw) {
        keys.annotation(UNCHECKED, SuppressWarnings.class, "unchecked", "rawtypes");
      }
      keys.begin();
      source.beginBlock("switch ($N)", method);
      keyed.forEach(each -> keysCase(source, each, args));
      source.line("default:").indent().statement("throw new $T($S + $N)", IllegalArgumentException.class, "no keyed method ", method).outdent();
      source.endBlock().endMethod();
    }
    helpers.forEach(helper -> helper.accept(source.blankLine()));
  }

  /** @return the name, followed by as many underscores as it takes to be none of the taken names (nor a keyword) */
  private static String unusedName(Set<String> taken, String name) {
    String unused = name;
    while (SourceVersion.isKeyword(unused) || !taken.add(unused)) {
      unused += "_";
    }
    return unused;
  }

  /**
   * {@code static Object delegateTo(int method, Object target, Object a, Object b, Object c, Object d,
   * long x, long y)}, which takes the argument slots as parameters, or {@code static Object
   * fallBackTo(int method, Object target, Arguments args, Throwable failure)}.
   */
  private void dispatch(JavaSource source, String name, ClassRef delegateType, List<Consumer<JavaSource>> cases, boolean takesFailure) {
    JavaSource.Method method = source.blankLine().method("private static", name)
        .returns(Object.class)
        .parameter(int.class, "method")
        .parameter(Object.class, "target");
    if (takesFailure) {
      method.parameter(ARGUMENTS, "args").parameter(Throwable.class, "failure");
    } else {
      addSlotParameters(method);
    }
    method.throwing(Throwable.class);
    if (raw) {
      method.annotation(UNCHECKED, SuppressWarnings.class, "unchecked", "rawtypes");
    }
    method.begin();
    source.statement("$T delegate = ($T) target", delegateType, delegateType);
    source.beginBlock("switch (method)");
    cases.forEach(each -> each.accept(source));
    source.line("default:").indent().statement("throw new $T($S + method)", IllegalArgumentException.class, "no method ").outdent();
    source.endBlock().endMethod();
  }

  /** {@code case 0: return delegate.item((String) args.a());}, or the call and {@code return null}. */
  private static void caseOf(JavaSource source, int number, Code call, boolean statement) {
    source.line("case $L:", number).indent();
    if (statement) {
      source.statement("$L", call).statement("return null");
    } else {
      source.statement("return $L", call);
    }
    source.outdent();
  }

  /**
   * A static helper that declares the interface's and the method's type parameters, so the
   * arguments are cast to their own types: {@code static <R extends Number> Object invokeMax(Object
   * target, Object a, Object b, Object c, Object d, long x, long y)}, or {@code fallbackMax(Object
   * target, Arguments args, Throwable failure)}.
   */
  private String helper(String base, Code call, String failure, boolean statement, ExecutableType type) {
    String name = WrapperWriter.unique(methodNames, base, "_");
    List<TypeCode.Variable> ifaceVariables = iface.getTypeParameters().stream().map(TypeCode::variable).toList();
    Code targetType = TypeCode.withOwnVariables(iface);
    List<TypeCode.Variable> variables = new ArrayList<>(ifaceVariables);
    type.getTypeVariables().forEach(variable -> variables.add(TypeCode.variable(variable)));
    helpers.add(source -> {
      JavaSource.Method method = source.method("private static", name)
          .annotation(UNCHECKED, SuppressWarnings.class, "unchecked", "rawtypes")
          .typeVariables(variables)
          .returns(Object.class)
          .parameter(Object.class, "target");
      if (failure != null) {
        method.parameter(ARGUMENTS, "args").parameter(Throwable.class, failure);
      } else {
        addSlotParameters(method);
      }
      method.throwing(Throwable.class).begin();
      source.statement("$L delegate = ($L) target", targetType, targetType);
      if (statement) {
        source.statement("$L", call).statement("return null");
      } else {
        source.statement("return $L", call);
      }
      source.endMethod();
    });
    return name;
  }

  /** The argument slots as the invoker takes them: {@code Object a, Object b, Object c, Object d, long x, long y}. */
  private static void addSlotParameters(JavaSource.Method method) {
    for (String reference : new String[] {"a", "b", "c", "d"}) {
      method.parameter(Object.class, reference);
    }
    method.parameter(long.class, "x").parameter(long.class, "y");
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
  static Optional<Code> keys(MethodModel method) {
    Code breaker = method.breakerKey().map(key -> key(key, method.callName())).orElse(Code.of("null"));
    Code limiter = method.limiterKey().map(key -> key(key, method.callName())).orElse(Code.of("null"));
    if (method.remembersResults()) {
      Code stale = method.staleKey().map(key -> key(key, method.callName())).orElseGet(() -> allArguments(method));
      return Optional.of(Code.of("$T.of($L, $L, $L)", CALL_KEYS, breaker, limiter, stale));
    }
    if (method.breakerKey().isEmpty() && method.limiterKey().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Code.of("$T.of($L, $L)", CALL_KEYS, breaker, limiter));
  }

  /**
   * {@code CallKeys.arguments(a, b)}; a lone array argument is cast to {@code Object}, so it is
   * one argument rather than the varargs array itself.
   */
  private static Code allArguments(MethodModel method) {
    List<? extends VariableElement> parameters = method.method().getParameters();
    if (parameters.size() == 1 && parameters.get(0).asType().getKind() == TypeKind.ARRAY) {
      return Code.of("$T.arguments(($T) $N)", CALL_KEYS, Object.class, parameters.get(0).getSimpleName());
    }
    return Code.of("$T.arguments($L)", CALL_KEYS, Code.join(
        parameters.stream().map(parameter -> Code.of("$N", parameter.getSimpleName())).toList(), ", "));
  }

  /** {@code "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations")} */
  private static Code key(KeyExpression key, String callName) {
    boolean concatenated = key.parts().size() > 1;
    List<Code> parts = new ArrayList<>();
    for (KeyExpression.Part part : key.parts()) {
      if (part instanceof KeyExpression.Literal literal) {
        parts.add(Code.of("$S", literal.text()));
      } else {
        parts.add(value((KeyExpression.Value) part, callName, concatenated));
      }
    }
    return Code.join(parts, " + ");
  }

  /**
   * {@code CallKeys.part(request.host(), "request.host", call)}, guarded so that a null {@code
   * request} is reported as {@code request}: {@code request == null ? CallKeys.part(null, "request",
   * call) : …}.
   */
  private static Code value(KeyExpression.Value value, String callName, boolean parenthesized) {
    List<KeyExpression.Step> steps = value.steps();
    List<Code> expressions = new ArrayList<>();
    Code expression = Code.of("$N", steps.get(0).code());
    expressions.add(expression);
    for (KeyExpression.Step step : steps.subList(1, steps.size())) {
      expression = Code.of("$L.$N()", expression, step.code());
      expressions.add(expression);
    }
    Code code = Code.of("$T.part($L, $S, $S)", CALL_KEYS, expression, value.path(), callName);
    boolean guarded = false;
    for (int i = steps.size() - 2; i >= 0; i--) {
      if (steps.get(i).canBeNull()) {
        code = Code.of("$L == null ? $T.part(null, $S, $S) : $L",
            expressions.get(i), CALL_KEYS, steps.get(i).path(), callName, code);
        guarded = true;
      }
    }
    return guarded && parenthesized ? Code.of("($L)", code) : code;
  }
}
