package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.TypeVariableName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.util.Types;

/**
 * Writes a {@code Resilient*} wrapper from its model. All JavaPoet lives here. Each generated
 * method is one statement in one shape whatever its patterns: it hands the delegate call (and its
 * keys and fallback, when it has them) to the {@code ResilientCall} the registry resolved for it.
 * Every decision is the runtime's; the static {@code CallDefinition} holds only what the
 * annotations wrote.
 */
final class WrapperWriter {
  private static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  private static final ClassName REGISTRY = ClassName.get("dev.brace.runtime", "Registry");
  private static final ClassName RESILIENT_CALL = ClassName.get("dev.brace.runtime.support", "ResilientCall");
  private static final ClassName CALL_DEFINITION = ClassName.get("dev.brace.runtime.support", "CallDefinition");
  private static final ClassName CRITICALITY_LEVEL = ClassName.get("dev.brace", "Criticality", "Level");
  private static final ClassName CALL_KEYS = ClassName.get("dev.brace.runtime.support", "CallKeys");
  private static final ClassName COMPLETABLE_FUTURE = ClassName.get("java.util.concurrent", "CompletableFuture");

  private final Types types;

  WrapperWriter(Types types) {
    this.types = types;
  }

  JavaFile write(WrapperModel model) {
    TypeElement iface = model.iface();
    List<TypeVariableName> typeVariables = iface.getTypeParameters().stream().map(TypeVariableName::get).toList();
    ClassName wrapperClass = ClassName.get(model.packageName(), model.className());
    TypeName ifaceType = typeVariables.isEmpty()
        ? ClassName.get(iface)
        : ParameterizedTypeName.get(ClassName.get(iface), typeVariables.toArray(TypeName[]::new));
    DeclaredType wrapped = (DeclaredType) iface.asType();

    TypeSpec.Builder wrapper = TypeSpec.classBuilder(model.className())
        .addOriginatingElement(iface)
        .addAnnotation(AnnotationSpec.builder(GENERATED)
            .addMember("value", "$S", BraceProcessor.class.getCanonicalName())
            .build())
        .addTypeVariables(typeVariables)
        .addSuperinterface(ifaceType);
    if (model.isPublic()) {
      wrapper.addModifiers(Modifier.PUBLIC);
    }
    wrapper.addModifiers(Modifier.FINAL);

    Set<String> constantNames = new HashSet<>();
    Set<String> fieldNames = new HashSet<>(Set.of("delegate"));
    List<FieldSpec> constants = new ArrayList<>();
    List<FieldSpec> calls = new ArrayList<>();
    List<MethodSpec> methods = new ArrayList<>();
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(ifaceType, "delegate")
        .addParameter(REGISTRY, "registry")
        .addStatement("this.delegate = $T.requireNonNull(delegate, $S)", Objects.class, "delegate")
        .addStatement("$T.requireNonNull(registry, $S)", Objects.class, "registry");
    for (MethodModel method : model.methods()) {
      ExecutableType type = (ExecutableType) types.asMemberOf(wrapped, method.method());
      MethodSpec.Builder spec = signature(method.method(), type);
      if (!method.isGuarded()) {
        methods.add(spec.addStatement(returnPrefix(method) + "this.delegate.$N($L)",
            method.method().getSimpleName(), arguments(method.method())).build());
        continue;
      }
      String name = method.method().getSimpleName().toString();
      String constant = unique(constantNames, upperSnake(name), "_");
      String call = unique(fieldNames, name, "");
      constants.add(FieldSpec.builder(CALL_DEFINITION, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer(definition(method))
          .build());
      calls.add(FieldSpec.builder(RESILIENT_CALL, call, Modifier.PRIVATE, Modifier.FINAL).build());
      constructor.addStatement("this.$N = registry.resolve($N)", call, constant);
      methods.add(spec.addCode(handOff(method, type, call)).build());
    }

    wrapper.addFields(constants);
    wrapper.addField(ifaceType, "delegate", Modifier.PRIVATE, Modifier.FINAL);
    wrapper.addFields(calls);
    wrapper.addMethod(constructor.build());
    wrapper.addMethod(MethodSpec.methodBuilder("wrap")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addTypeVariables(typeVariables)
        .returns(ifaceType)
        .addParameter(ifaceType, "delegate")
        .addStatement("return wrap(delegate, $T.defaultRegistry())", REGISTRY)
        .build());
    wrapper.addMethod(MethodSpec.methodBuilder("wrap")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addTypeVariables(typeVariables)
        .returns(ifaceType)
        .addParameter(ifaceType, "delegate")
        .addParameter(REGISTRY, "registry")
        .addStatement(typeVariables.isEmpty() ? "return new $T(delegate, registry)" : "return new $T<>(delegate, registry)",
            wrapperClass)
        .build());
    wrapper.addMethods(methods);
    wrapper.addMethods(objectMethods());
    return JavaFile.builder(model.packageName(), wrapper.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * The method's signature as a member of the wrapped interface (type arguments of a generic
   * super-interface substituted), with the interface's parameter names.
   */
  private MethodSpec.Builder signature(ExecutableElement method, ExecutableType type) {
    MethodSpec.Builder spec = MethodSpec.methodBuilder(method.getSimpleName().toString())
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC);
    for (TypeVariable variable : type.getTypeVariables()) {
      spec.addTypeVariable(typeVariable(variable));
    }
    spec.returns(TypeName.get(type.getReturnType()));
    List<? extends VariableElement> parameters = method.getParameters();
    for (int i = 0; i < parameters.size(); i++) {
      spec.addParameter(TypeName.get(type.getParameterTypes().get(i)), parameters.get(i).getSimpleName().toString());
    }
    spec.varargs(method.isVarArgs());
    for (TypeMirror thrown : type.getThrownTypes()) {
      spec.addException(TypeName.get(thrown));
    }
    return spec;
  }

  /** JavaPoet cannot name an intersection bound ({@code R extends Number & Comparable<R>}) itself. */
  private static TypeVariableName typeVariable(TypeVariable variable) {
    TypeMirror upper = variable.getUpperBound();
    List<? extends TypeMirror> bounds = upper instanceof IntersectionType intersection ? intersection.getBounds() : List.of(upper);
    List<TypeName> names = bounds.stream()
        .filter(bound -> !bound.toString().equals("java.lang.Object"))
        .map(TypeName::get)
        .toList();
    return TypeVariableName.get(variable.asElement().getSimpleName().toString(), names.toArray(TypeName[]::new));
  }

  /**
   * {@code CallDefinition.builder("I.m").with(RetryConfig.builder("I.m").maxAttempts(3)).build()}:
   * each pattern with the attributes written on it, and the type the fallback method takes.
   */
  private CodeBlock definition(MethodModel method) {
    CodeBlock.Builder code = CodeBlock.builder().add("$T.builder($S)$>", CALL_DEFINITION, method.callName());
    for (PatternModel pattern : method.patterns()) {
      CodeBlock.Builder config = CodeBlock.builder().add("$T.builder($S)", ClassName.get(pattern.kind().configType()), pattern.name());
      for (Setting setting : pattern.settings()) {
        config.add(".$N($L)", setting.setter(), value(setting.value()));
      }
      code.add("\n.with($L)", config.build());
    }
    method.fallback().ifPresent(fallback -> fallback.failureType().filter(type -> !isThrowable(type)).ifPresent(failureType ->
        code.add("\n.fallbackTakes($S, $T.class)", fallback.methodName(), TypeName.get(types.erasure(failureType)))));
    method.criticality().ifPresent(level -> code.add("\n.criticality($T.$N)", CRITICALITY_LEVEL, level));
    if (method.notIdempotent()) {
      code.add("\n.notIdempotent()");
    }
    return code.add("\n.build()$<").build();
  }

  private CodeBlock value(Setting.Value value) {
    if (value instanceof Setting.Text text) {
      return CodeBlock.of("$S", text.text());
    }
    if (value instanceof Setting.EnumConstant constant) {
      return CodeBlock.of("$T.$N", TypeName.get(constant.type()), constant.constant());
    }
    if (value instanceof Setting.Types classes) {
      return CodeBlock.join(
          classes.types().stream().map(type -> CodeBlock.of("$T.class", TypeName.get(types.erasure(type)))).toList(),
          ", ");
    }
    if (value instanceof Setting.NewInstance instance) {
      return CodeBlock.of("new $T()", ClassName.get((TypeElement) types.asElement(instance.type())));
    }
    if (value instanceof Setting.Number number) {
      return CodeBlock.of("$L", number.number());
    }
    if (value instanceof Setting.Flag flag) {
      return CodeBlock.of("$L", flag.flag());
    }
    throw new IllegalArgumentException("not passed to a config: " + value);
  }


  /**
   * An asynchronous method hands its delegate call to the runtime's asynchronous driver: {@code
   * return this.m.callAsync(() -> keys, () -> this.delegate.m(args), failure -> fallback)}. A
   * synchronous one walks the runtime's steps in its own body (see {@code ResilientCall}), so its
   * happy path allocates nothing.
   */
  private CodeBlock handOff(MethodModel method, ExecutableType type, String callField) {
    if (method.isAsync()) {
      return asyncHandOff(method, callField);
    }
    return method.remembersResults() ? syncHandOff(method, callField) : syncSteps(method, type, callField);
  }

  /**
   * A synchronous method with {@code @StaleIfError} hands its call over as an asynchronous one
   * does: {@code return this.m.call(() -> keys, () -> this.delegate.m(args), failure -> fallback)}.
   * Its happy path stores its result, which allocates anyway, so walking the steps in its own
   * body would buy nothing.
   */
  private CodeBlock syncHandOff(MethodModel method, String callField) {
    String failure = localNames(method).newName("failure");
    CodeBlock delegateCall = CodeBlock.of("this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    List<CodeBlock> arguments = new ArrayList<>();
    arguments.add(CodeBlock.of("() -> $L", keys(method).orElseThrow()));
    arguments.add(CodeBlock.of("() -> $L", delegateCall));
    arguments.add(method.fallback()
        .map(fallback -> CodeBlock.of("$N -> $L", failure, fallbackCall(method, fallback, failure)))
        .orElse(CodeBlock.of("null")));
    return CodeBlock.builder()
        .addStatement("return this.$N.call(\n$L)", callField, CodeBlock.join(arguments, ",\n"))
        .build();
  }

  private CodeBlock asyncHandOff(MethodModel method, String callField) {
    String failure = localNames(method).newName("failure");
    CodeBlock delegateCall = CodeBlock.of("this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    List<CodeBlock> arguments = new ArrayList<>();
    keys(method).ifPresent(keys -> arguments.add(CodeBlock.of("() -> $L", keys)));
    arguments.add(CodeBlock.of("() -> $L", delegateCall));
    arguments.add(method.fallback().map(fallback -> fallbackLambda(method, fallback, failure)).orElse(CodeBlock.of("null")));
    return CodeBlock.builder()
        .addStatement("return this.$N.callAsync(\n$L)", callField, CodeBlock.join(arguments, ",\n"))
        .build();
  }

  /** The loop of {@code ResilientCall}'s Javadoc, with local names that no parameter can shadow. */
  private CodeBlock syncSteps(MethodModel method, ExecutableType type, String callField) {
    NameAllocator names = localNames(method);
    String call = names.newName("call");
    String keys = names.newName("keys");
    String started = names.newName("started");
    String run = names.newName("run");
    String attempt = names.newName("attempt");
    String ticket = names.newName("ticket");
    String result = names.newName("result");
    String failure = names.newName("failure");
    String cause = names.newName("cause");
    String fallbackFailure = names.newName("fallbackFailure");
    boolean isVoid = type.getReturnType().getKind() == TypeKind.VOID;
    CodeBlock delegateCall = CodeBlock.of("this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    CodeBlock attemptCall = method.pattern(Kind.TIMEOUT).isPresent()
        ? CodeBlock.of("$N.timed($L)", call, supplier(delegateCall, isVoid))
        : delegateCall;

    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("$T $N = this.$N.current()", RESILIENT_CALL, call, callField)
        .beginControlFlow("if ($N.passesThrough())", call);
    if (isVoid) {
      code.addStatement("$L", delegateCall).addStatement("return");
    } else {
      code.addStatement("return $L", delegateCall);
    }
    code.endControlFlow()
        .addStatement("$T $N = $L", CALL_KEYS, keys, keys(method).orElse(CodeBlock.of("$T.NONE", CALL_KEYS)))
        .addStatement("long $N = $N.begin()", started, call)
        .addStatement("$T $N = null", Object.class, run);
    boolean fallsBack = method.fallback().isPresent();
    if (fallsBack) {
      code.beginControlFlow("try");
    }
    code.beginControlFlow("for (int $N = 1; ; $N++)", attempt, attempt)
        .beginControlFlow("try");
    if (method.pattern(Kind.HEDGE).isPresent()) {
      // The hedge's attempts run on worker threads, so the delegate call is handed over.
      CodeBlock hedged = CodeBlock.of("$N.hedged($N, $L)", call, keys, supplier(delegateCall, isVoid));
      if (isVoid) {
        code.addStatement("$L", hedged);
      } else {
        code.addStatement("$T $N = $L", TypeName.get(type.getReturnType()), result, hedged);
      }
    } else {
      attemptSteps(code, call, keys, ticket, result, failure, attemptCall, type, isVoid);
    }
    code.addStatement("$N = $N.retryResult($N, $N, $N, $L)", run, call, run, attempt, started, isVoid ? "null" : result)
        .beginControlFlow("if ($N == null)", run)
        .addStatement(isVoid ? "return" : "return " + result)
        .endControlFlow()
        .nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("$N = $N.retryOrThrow($N, $N, $N, $N)", run, call, run, attempt, started, failure)
        .endControlFlow()
        .endControlFlow();
    if (fallsBack) {
      CodeBlock fallbackCall = fallbackCall(method, method.fallback().get(), cause);
      code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
          .addStatement("$T $N = $N.answerable($N)", Throwable.class, cause, call, failure)
          .beginControlFlow("if ($N == null)", cause)
          .addStatement("throw $T.rethrow($N)", RESILIENT_CALL, failure)
          .endControlFlow()
          .beginControlFlow("try");
      if (isVoid) {
        code.addStatement("$L", fallbackCall).addStatement("return");
      } else {
        code.addStatement("return $L", fallbackCall);
      }
      code.nextControlFlow("catch ($T $N)", Throwable.class, fallbackFailure)
          .addStatement("throw $N.fallbackFailed($N, $N)", call, fallbackFailure, failure)
          .endControlFlow()
          .endControlFlow();
    }
    return code.build();
  }

  /** Admission, the attempt and its outcome, on the caller's thread: the loop's body without a hedge. */
  private static void attemptSteps(CodeBlock.Builder code, String call, String keys, String ticket, String result,
      String failure, CodeBlock attemptCall, ExecutableType type, boolean isVoid) {
    code.addStatement("$T $N = $N.admit($N)", Object.class, ticket, call, keys);
    if (!isVoid) {
      code.addStatement("$T $N", TypeName.get(type.getReturnType()), result);
    }
    code.beginControlFlow("try");
    if (isVoid) {
      code.addStatement("$L", attemptCall);
    } else {
      code.addStatement("$N = $L", result, attemptCall);
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("$N.attemptFailed($N, $N)", call, ticket, failure)
        .addStatement("throw $N", failure)
        .endControlFlow()
        .addStatement("$N.attemptSucceeded($N, $L)", call, ticket, isVoid ? "null" : result);
  }

  /** {@code () -> this.delegate.m(args)}, or for {@code void} a block that returns null. */
  private static CodeBlock supplier(CodeBlock delegateCall, boolean isVoid) {
    return isVoid
        ? CodeBlock.of("() -> {\n$>$L;\nreturn null;\n$<}", delegateCall)
        : CodeBlock.of("() -> $L", delegateCall);
  }

  private static NameAllocator localNames(MethodModel method) {
    NameAllocator names = new NameAllocator();
    for (VariableElement parameter : method.method().getParameters()) {
      names.newName(parameter.getSimpleName().toString(), parameter);
    }
    return names;
  }

  /** {@code failure -> this.delegate.fallback(args, (IOException) failure)}, as a future. */
  private CodeBlock fallbackLambda(MethodModel method, FallbackModel fallback, String failure) {
    CodeBlock call = fallbackCall(method, fallback, failure);
    return fallback.returnsFuture()
        ? CodeBlock.of("$N -> $L", failure, call)
        : CodeBlock.of("$N -> $T.completedFuture($L)", failure, COMPLETABLE_FUTURE, call);
  }

  private CodeBlock fallbackCall(MethodModel method, FallbackModel fallback, String failure) {
    List<CodeBlock> arguments = new ArrayList<>();
    for (VariableElement parameter : method.method().getParameters()) {
      arguments.add(CodeBlock.of("$N", parameter.getSimpleName().toString()));
    }
    fallback.failureType().ifPresent(failureType -> arguments.add(isThrowable(failureType)
        ? CodeBlock.of("$N", failure)
        : CodeBlock.of("($T) $N", TypeName.get(failureType), failure)));
    CodeBlock receiver = fallback.isStatic()
        ? CodeBlock.of("$T", ClassName.get(fallback.declaringInterface()))
        : CodeBlock.of("this.delegate");
    return CodeBlock.of("$L.$N($L)", receiver, fallback.methodName(), CodeBlock.join(arguments, ", "));
  }

  private static boolean isThrowable(TypeMirror type) {
    return type.toString().equals("java.lang.Throwable");
  }

  /**
   * {@code CallKeys.of(breakerKey, limiterKey)}, when any of the call's instances is keyed; with
   * {@code @StaleIfError}, {@code CallKeys.of(breakerKey, limiterKey, staleKey)}, the stale key
   * being its template or every argument.
   */
  private static Optional<CodeBlock> keys(MethodModel method) {
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
    if (parameters.size() == 1 && parameters.get(0).asType().getKind() == TypeKind.ARRAY) {
      return CodeBlock.of("$T.arguments(($T) $N)", CALL_KEYS, Object.class, parameters.get(0).getSimpleName().toString());
    }
    return CodeBlock.of("$T.arguments($L)", CALL_KEYS, arguments(method.method()));
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

  private List<MethodSpec> objectMethods() {
    return List.of(
        MethodSpec.methodBuilder("equals")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(boolean.class)
            .addParameter(Object.class, "other")
            .addStatement("return other == this || this.delegate.equals(other)")
            .build(),
        MethodSpec.methodBuilder("hashCode")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(int.class)
            .addStatement("return this.delegate.hashCode()")
            .build(),
        MethodSpec.methodBuilder("toString")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(String.class)
            .addStatement("return this.delegate.toString()")
            .build());
  }

  private static String returnPrefix(MethodModel method) {
    return method.method().getReturnType().getKind() == TypeKind.VOID ? "" : "return ";
  }

  private static CodeBlock arguments(ExecutableElement method) {
    return CodeBlock.join(
        method.getParameters().stream().map(parameter -> CodeBlock.of("$N", parameter.getSimpleName().toString())).toList(),
        ", ");
  }

  private static String unique(Set<String> taken, String base, String separator) {
    String name = base;
    for (int i = 2; !taken.add(name); i++) {
      name = base + separator + i;
    }
    return name;
  }

  private static String upperSnake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }
}
