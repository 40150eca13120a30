package dev.brace.processor;

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
 * Writes a {@code Resilient*} wrapper from its model. All JavaPoet lives here. The generated
 * methods are the thin driver documented on {@code CallGuard}, in one shape whatever the patterns:
 * every decision is the guard's.
 */
final class WrapperWriter {
  private static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  private static final ClassName REGISTRY = ClassName.get("dev.brace.runtime", "Registry");
  private static final ClassName CALL_GUARD = ClassName.get("dev.brace.runtime.internal.sequence", "CallGuard");
  private static final ClassName CALL_DEFINITION = ClassName.get("dev.brace.runtime.generated", "CallDefinition");
  private static final ClassName RETRY_RUN = ClassName.get("dev.brace.runtime.internal.policy", "RetryRun");
  private static final ClassName FAILURES = ClassName.get("dev.brace.runtime.generated", "Failures");
  private static final ClassName KEYS = ClassName.get("dev.brace.runtime.generated", "Keys");
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
    List<FieldSpec> guards = new ArrayList<>();
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
      String guard = unique(fieldNames, name + "Guard", "");
      constants.add(FieldSpec.builder(CALL_DEFINITION, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer(definition(method))
          .build());
      guards.add(FieldSpec.builder(CALL_GUARD, guard, Modifier.PRIVATE, Modifier.FINAL).build());
      constructor.addStatement("this.$N = registry.guard($N)", guard, constant);
      methods.add(spec.addCode(method.isAsync() ? asyncDriver(method, guard) : driver(method, type, guard)).build());
    }

    wrapper.addFields(constants);
    wrapper.addField(ifaceType, "delegate", Modifier.PRIVATE, Modifier.FINAL);
    wrapper.addFields(guards);
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

  /** {@code CallDefinition.builder("I.m").retry(RetryConfig.builder("I.m").maxAttempts(3)…).build()} */
  private CodeBlock definition(MethodModel method) {
    CodeBlock.Builder code = CodeBlock.builder().add("$T.builder($S)$>", CALL_DEFINITION, method.callName());
    for (PatternModel pattern : method.patterns()) {
      CodeBlock.Builder config = CodeBlock.builder().add("$T.builder($S)", ClassName.get(pattern.kind().config()), pattern.name());
      for (Setting setting : pattern.settings()) {
        config.add(".$N($L)", setting.setter(), value(setting.value()));
      }
      code.add("\n.$N($L)", pattern.kind().definitionStep(), config.build());
    }
    return code.add("\n.build()$<").build();
  }

  private CodeBlock value(Object value) {
    if (value instanceof String text) {
      return CodeBlock.of("$S", text);
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
    return CodeBlock.of("$L", value); // Integer, or a finite Double whose toString is a Java literal
  }

  /** The driver of {@code CallGuard}'s Javadoc, with local names that no parameter can shadow. */
  private CodeBlock driver(MethodModel method, ExecutableType type, String guardField) {
    NameAllocator names = new NameAllocator();
    for (VariableElement parameter : method.method().getParameters()) {
      names.newName(parameter.getSimpleName().toString(), parameter);
    }
    String guard = names.newName("guard");
    String started = names.newName("started");
    String run = names.newName("run");
    String attempt = names.newName("attempt");
    String permit = names.newName("permit");
    String result = names.newName("result");
    String failure = names.newName("failure");
    String fallbackFailure = names.newName("fallbackFailure");
    boolean isVoid = type.getReturnType().getKind() == TypeKind.VOID;
    CodeBlock call = CodeBlock.of("this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    if (method.pattern(PatternKind.TIMEOUT).isPresent()) {
      call = isVoid
          ? CodeBlock.of("$N.timed(() -> {\n$>$L;\nreturn null;\n$<})", guard, call)
          : CodeBlock.of("$N.timed(() -> $L)", guard, call);
    }

    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("$T $N = this.$N", CALL_GUARD, guard, guardField);
    // Keys are computed once, before any pattern: a null part is the caller's mistake, reported
    // at once, never retried, never answered by a fallback, never recorded by a breaker.
    CodeBlock admitArguments = CodeBlock.of("");
    if (method.breakerKey().isPresent() || method.limiterKey().isPresent()) {
      String breakerKey = names.newName("breakerKey");
      String limiterKey = names.newName("limiterKey");
      code.addStatement("$T $N = $L", String.class, breakerKey,
              method.breakerKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null")))
          .addStatement("$T $N = $L", String.class, limiterKey,
              method.limiterKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null")));
      admitArguments = CodeBlock.of("$N, $N", breakerKey, limiterKey);
    }
    code.addStatement("long $N = $N.begin()", started, guard)
        .addStatement("$T $N = null", RETRY_RUN, run)
        .beginControlFlow("try")
        .beginControlFlow("for (int $N = 1; ; $N++)", attempt, attempt)
        .beginControlFlow("try")
        .addStatement("$T $N = $N.admit($L)", Object.class, permit, guard, admitArguments);
    if (!isVoid) {
      code.addStatement("$T $N", TypeName.get(type.getReturnType()), result);
    }
    code.beginControlFlow("try");
    if (isVoid) {
      code.addStatement("$L", call);
    } else {
      code.addStatement("$N = $L", result, call);
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("$N.attemptFailed($N, $N)", guard, permit, failure)
        .addStatement("throw $N", failure)
        .endControlFlow();
    if (method.testsResults(PatternKind.CIRCUIT_BREAKER)) {
      code.addStatement("$N.attemptSucceeded($N, $N)", guard, permit, result);
    } else {
      code.addStatement("$N.attemptSucceeded($N)", guard, permit);
    }
    if (method.testsResults(PatternKind.RETRY)) {
      code.addStatement("$N = $N.retryResult($N, $N, $N, $N)", run, guard, run, attempt, started, result)
          .beginControlFlow("if ($N == null)", run)
          .addStatement("return $N", result)
          .endControlFlow();
    } else if (isVoid) {
      code.addStatement("return");
    } else {
      code.addStatement("return $N", result);
    }
    code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("$N = $N.retryOrThrow($N, $N, $N, $N)", run, guard, run, attempt, started, failure)
        .endControlFlow()
        .endControlFlow()
        .nextControlFlow("catch ($T $N)", Throwable.class, failure);
    if (method.fallback().isEmpty()) {
      code.addStatement("throw $T.rethrow($N)", FAILURES, failure);
    } else {
      FallbackModel fallback = method.fallback().get();
      code.beginControlFlow("if (!$N.fallsBack($N))", guard, failure)
          .addStatement("throw $T.rethrow($N)", FAILURES, failure)
          .endControlFlow()
          .beginControlFlow("try");
      CodeBlock fallbackCall = fallbackCall(method, fallback, failure);
      if (isVoid) {
        code.addStatement("$L", fallbackCall).addStatement("return");
      } else {
        code.addStatement("return $L", fallbackCall);
      }
      code.nextControlFlow("catch ($T $N)", Throwable.class, fallbackFailure)
          .addStatement("throw $N.fallbackFailed($N, $N)", guard, fallbackFailure, failure)
          .endControlFlow();
    }
    return code.endControlFlow().build();
  }

  /**
   * {@code return this.mGuard.callAsync(() -> this.delegate.m(args), failure -> …)}: the runtime's
   * asynchronous driver takes the same steps without blocking a thread.
   */
  private CodeBlock asyncDriver(MethodModel method, String guardField) {
    NameAllocator names = new NameAllocator();
    for (VariableElement parameter : method.method().getParameters()) {
      names.newName(parameter.getSimpleName().toString(), parameter);
    }
    String failure = names.newName("failure");
    CodeBlock attempt = CodeBlock.of("() -> this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    CodeBlock fallback = CodeBlock.of("null");
    if (method.fallback().isPresent()) {
      CodeBlock call = fallbackCall(method, method.fallback().get(), failure);
      fallback = method.fallback().get().returnsFuture()
          ? CodeBlock.of("$N -> $L", failure, call)
          : CodeBlock.of("$N -> $T.completedFuture($L)", failure, COMPLETABLE_FUTURE, call);
    }
    CodeBlock keys = admitArguments(method);
    return CodeBlock.builder()
        .addStatement("return this.$N.callAsync($L$L, $L)", guardField,
            keys.isEmpty() ? keys : CodeBlock.of("$L, ", keys), attempt, fallback)
        .build();
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

  private CodeBlock admitArguments(MethodModel method) {
    if (method.breakerKey().isEmpty() && method.limiterKey().isEmpty()) {
      return CodeBlock.of("");
    }
    return CodeBlock.of("$L, $L",
        method.breakerKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null")),
        method.limiterKey().map(key -> key(key, method.callName())).orElse(CodeBlock.of("null")));
  }

  /** {@code "user:" + Keys.part(userId, "userId", "RecsClient.recommendations")} */
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
   * {@code Keys.part(request.host(), "request.host", call)}, guarded so that a null {@code request}
   * is reported as {@code request}: {@code request == null ? Keys.part(null, "request", call) : …}.
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
    CodeBlock code = CodeBlock.of("$T.part($L, $S, $S)", KEYS, expression, value.path(), callName);
    boolean guarded = false;
    for (int i = steps.size() - 2; i >= 0; i--) {
      if (steps.get(i).canBeNull()) {
        code = CodeBlock.of("$L == null ? $T.part(null, $S, $S) : $L",
            expressions.get(i), KEYS, steps.get(i).path(), callName, code);
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
