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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
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
  private static final ClassName REACTOR_CALLS = ClassName.get("dev.brace.reactor", "ReactorCalls");
  private static final ClassName ARGUMENTS = ClassName.get("dev.brace.runtime.support", "Arguments");
  private static final AnnotationSpec UNCHECKED = AnnotationSpec.builder(SuppressWarnings.class)
      .addMember("value", "{$S, $S}", "unchecked", "rawtypes")
      .build();

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
    List<MethodSpec> helpers = new ArrayList<>();
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
      Delegation delegation = new Delegation(method, type, new ArgumentSlots(method.method(), type, types), iface, wrapperClass);
      FieldSpec.Builder definition = FieldSpec.builder(CALL_DEFINITION, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer(definition(method, delegation, helpers, constantNames));
      if (delegation.raw()) {
        definition.addAnnotation(UNCHECKED);
      }
      constants.add(definition.build());
      calls.add(FieldSpec.builder(RESILIENT_CALL, call, Modifier.PRIVATE, Modifier.FINAL).build());
      constructor.addStatement("this.$N = registry.resolve($N)", call, constant);
      methods.add(spec.addCode(handOff(method, delegation, call)).build());
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
    wrapper.addMethods(helpers);
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
   * {@code CallDefinition.builder("I.m").with(RetryConfig.builder("I.m").maxAttempts(3))….build()}:
   * each pattern with the attributes written on it, the type the fallback method takes, and the
   * lambdas (capturing nothing) that call the delegate, the fallback and compute the keys from a
   * call's arguments.
   */
  private CodeBlock definition(MethodModel method, Delegation delegation, List<MethodSpec> helpers, Set<String> names) {
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
    code.add("\n.invokes($L)", delegation.invoker(helpers, names));
    method.fallback().ifPresent(fallback -> code.add("\n.fallback($L)", delegation.fallback(fallback, helpers, names)));
    keys(method).ifPresent(keys -> code.add("\n.keys($L)", delegation.keys(keys)));
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
   * The generated method's one statement: {@code return this.m.call(this.delegate, a, b, c, d, x, y)}
   * (or {@code callAsync}; for a {@code Mono} or {@code Flux}, {@code ReactorCalls.mono(this.m,
   * this.delegate, …)} or {@code flux}), the arguments in their slots.
   */
  private static CodeBlock handOff(MethodModel method, Delegation delegation, String callField) {
    CodeBlock call;
    if (method.returnKind() == ReturnKind.MONO || method.returnKind() == ReturnKind.FLUX) {
      call = CodeBlock.of("$T.$N(this.$N, this.delegate, $L)", REACTOR_CALLS,
          method.returnKind() == ReturnKind.MONO ? "mono" : "flux", callField, delegation.slots().callArguments());
    } else {
      String form = method.isAsync() ? "callAsync" : "call";
      call = CodeBlock.of("this.$N.$N(this.delegate, $L)", callField, form, delegation.slots().callArguments());
    }
    return delegation.returnsVoid()
        ? CodeBlock.builder().addStatement("$L", call).build()
        : CodeBlock.builder().addStatement("return $L", call).build();
  }

  /**
   * How one method reaches the delegate from a call's arguments: as lambdas in its definition, or,
   * for a method with type parameters of its own (which a static field cannot name), through
   * static helper methods of the wrapper that declare them.
   */
  private final class Delegation {
    private final MethodModel method;
    private final ExecutableType type;
    private final ArgumentSlots slots;
    private final TypeElement iface;
    private final ClassName wrapper;
    private final boolean generic;

    Delegation(MethodModel method, ExecutableType type, ArgumentSlots slots, TypeElement iface, ClassName wrapper) {
      this.method = method;
      this.type = type;
      this.slots = slots;
      this.iface = iface;
      this.wrapper = wrapper;
      this.generic = !type.getTypeVariables().isEmpty();
    }

    ArgumentSlots slots() {
      return slots;
    }

    boolean returnsVoid() {
      return type.getReturnType().getKind() == TypeKind.VOID;
    }

    /** @return whether its lambdas use raw types: a generic interface, or parameters of parameterized types */
    boolean raw() {
      return !iface.getTypeParameters().isEmpty() || type.getParameterTypes().stream()
          .anyMatch(parameter -> !types.isSameType(parameter, types.erasure(parameter)));
    }

    /** {@code (target, args) -> ((Catalog) target).item((String) args.a())} */
    CodeBlock invoker(List<MethodSpec> helpers, Set<String> names) {
      CodeBlock call = CodeBlock.of("$L.$N($L)", receiver("target"), method.method().getSimpleName(),
          slots.readAll("args", generic));
      if (generic) {
        return CodeBlock.of("$T::$N", wrapper, helper("invoke", call, null, helpers, names));
      }
      return returnsVoid()
          ? CodeBlock.of("(target, args) -> {\n$>$L;\nreturn null;\n$<}", call)
          : CodeBlock.of("(target, args) -> $L", call);
    }

    /** {@code (target, args, failure) -> ((Catalog) target).noItem((String) args.a(), (IOException) failure)} */
    CodeBlock fallback(FallbackModel fallback, List<MethodSpec> helpers, Set<String> names) {
      List<CodeBlock> arguments = new ArrayList<>();
      arguments.add(slots.readAll("args", generic));
      fallback.failureType().ifPresent(failureType -> arguments.add(isThrowable(failureType)
          ? CodeBlock.of("failure")
          : CodeBlock.of("($T) failure", TypeName.get(failureType))));
      CodeBlock receiver = fallback.isStatic()
          ? CodeBlock.of("$T", ClassName.get(fallback.declaringInterface()))
          : receiver("target");
      CodeBlock call = CodeBlock.of("$L.$N($L)", receiver, fallback.methodName(),
          CodeBlock.join(arguments.stream().filter(each -> !each.isEmpty()).toList(), ", "));
      if (method.isAsync() && !fallback.returnsDeferred()) {
        call = CodeBlock.of("$T.completedFuture($L)", COMPLETABLE_FUTURE, call);
      } else if (method.returnKind() == ReturnKind.MONO && !fallback.returnsDeferred()) {
        call = CodeBlock.of("$T.answer($L)", REACTOR_CALLS, call);
      }
      if (generic) {
        return CodeBlock.of("$T::$N", wrapper, helper("fallback", call, "failure", helpers, names));
      }
      return returnsVoid() && !method.isAsync()
          ? CodeBlock.of("(target, args, failure) -> {\n$>$L;\nreturn null;\n$<}", call)
          : CodeBlock.of("(target, args, failure) -> $L", call);
    }

    /**
     * {@code args -> { String userId = (String) args.a(); return CallKeys.of(…); }}, with a local
     * for each parameter the keys read.
     */
    CodeBlock keys(CodeBlock keys) {
      NameAllocator locals = new NameAllocator();
      slots.names().forEach(name -> locals.newName(name, name));
      String args = locals.newName("args");
      Set<String> read = parametersTheKeysRead();
      CodeBlock.Builder body = CodeBlock.builder();
      List<? extends TypeMirror> parameterTypes = type.getParameterTypes();
      for (int i = 0; i < parameterTypes.size(); i++) {
        if (!read.contains(slots.names().get(i))) {
          continue;
        }
        TypeMirror parameterType = parameterTypes.get(i);
        TypeName local = parameterType.getKind().isPrimitive() ? TypeName.get(parameterType) : TypeName.get(types.erasure(parameterType));
        body.addStatement("$T $N = $L", local, slots.names().get(i), slots.read(i, args, false));
      }
      body.addStatement("return $L", keys);
      return CodeBlock.of("$N -> {\n$>$L$<}", args, body.build());
    }

    /** @return the parameters the key templates name; every one when the stale key is all arguments */
    private Set<String> parametersTheKeysRead() {
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

    /**
     * The receiver: in a lambda, the {@code Object} it receives cast to the interface (raw for a
     * generic one); in a helper, its typed local.
     */
    private CodeBlock receiver(String target) {
      return generic ? CodeBlock.of("delegate") : CodeBlock.of("(($T) $N)", ClassName.get(iface), target);
    }

    /**
     * A static helper that declares the interface's and the method's type parameters, so the
     * arguments are cast to their own types: {@code static <R extends Number> Object invokeMax(Object
     * target, Arguments args)}.
     */
    private String helper(String prefix, CodeBlock call, String failure, List<MethodSpec> helpers, Set<String> names) {
      String simple = method.method().getSimpleName().toString();
      String name = unique(names, prefix + Character.toUpperCase(simple.charAt(0)) + simple.substring(1), "_");
      TypeName targetType = iface.getTypeParameters().isEmpty()
          ? ClassName.get(iface)
          : ParameterizedTypeName.get(ClassName.get(iface),
              iface.getTypeParameters().stream().map(TypeVariableName::get).toArray(TypeName[]::new));
      MethodSpec.Builder spec = MethodSpec.methodBuilder(name)
          .addAnnotation(UNCHECKED)
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .returns(Object.class)
          .addParameter(Object.class, "target")
          .addParameter(ARGUMENTS, "args")
          .addException(Throwable.class);
      iface.getTypeParameters().forEach(variable -> spec.addTypeVariable(TypeVariableName.get(variable)));
      type.getTypeVariables().forEach(variable -> spec.addTypeVariable(typeVariable(variable)));
      if (failure != null) {
        spec.addParameter(Throwable.class, failure);
      }
      spec.addStatement("$T delegate = ($T) target", targetType, targetType);
      if (returnsVoid() && !method.isAsync()) {
        spec.addStatement("$L", call).addStatement("return null");
      } else {
        spec.addStatement("return $L", call);
      }
      helpers.add(spec.build());
      return name;
    }
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
