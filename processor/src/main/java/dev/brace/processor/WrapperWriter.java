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
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
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
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
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
  private static final ClassName INVOKER = ClassName.get("dev.brace.runtime.support", "SlotInvoker");
  private static final ClassName FALLBACK_INVOKER = ClassName.get("dev.brace.runtime.support", "FallbackInvoker");
  private static final ClassName KEYS_OF = ClassName.get("dev.brace.runtime.support", "KeysOf");
  private static final ClassName REACTOR_CALLS = ClassName.get("dev.brace.reactor", "ReactorCalls");

  private final Types types;
  private final Elements elements;

  WrapperWriter(Types types, Elements elements) {
    this.types = types;
    this.elements = elements;
  }

  /** @return the interface as written with its own type variables: {@code Repo<T>}, or {@code Repo} */
  static TypeName withOwnVariables(TypeElement iface) {
    if (iface.getTypeParameters().isEmpty()) {
      return ClassName.get(iface);
    }
    return ParameterizedTypeName.get(ClassName.get(iface),
        iface.getTypeParameters().stream().map(TypeVariableName::get).toArray(TypeName[]::new));
  }

  /**
   * @param model the validated interface
   * @return the wrapper's source, with the interface as its originating element, its factory
   *     nested in it
   */
  JavaFile write(WrapperModel model) {
    TypeElement iface = model.iface();
    List<TypeVariableName> typeVariables = iface.getTypeParameters().stream().map(TypeVariableName::get).toList();
    ClassName wrapperClass = ClassName.get(model.packageName(), model.className());
    TypeName ifaceType = withOwnVariables(iface);
    DeclaredType wrapped = (DeclaredType) iface.asType();

    TypeSpec.Builder wrapper = TypeSpec.classBuilder(model.className())
        .addOriginatingElement(iface)
        .addAnnotation(AnnotationSpec.builder(GENERATED)
            .addMember("value", "$S", BraceProcessor.class.getCanonicalName())
            .build())
        .addTypeVariables(typeVariables)
        .addSuperinterface(ifaceType)
        // Inside the wrapper a member type it inherits hides any import of the same simple name
        // (an interface declaring its own Registry, List or Timeout): such names are written qualified.
        .avoidClashesWithNestedClasses(iface);
    if (model.isPublic()) {
      wrapper.addModifiers(Modifier.PUBLIC);
    }
    wrapper.addModifiers(Modifier.FINAL);

    Set<String> constantNames = new HashSet<>();
    Set<String> fieldNames = new HashSet<>(Set.of("delegate"));
    Set<String> methodNames = new HashSet<>(Set.of("wrap", "equals", "hashCode", "toString"));
    model.methods().forEach(method -> methodNames.add(method.method().getSimpleName().toString()));
    DispatchWriter dispatch = new DispatchWriter(types, iface, wrapperClass, methodNames);
    List<MethodModel> guarded = model.methods().stream().filter(MethodModel::isGuarded).toList();
    SharedPatterns shared = new SharedPatterns(guarded, constantNames);
    FaultConstructors faults = new FaultConstructors(constantNames);
    String invokers = unique(constantNames, "DELEGATE_TO", "_");
    String fallbacks = guarded.stream().anyMatch(method -> method.fallback().isPresent())
        ? unique(constantNames, "FALL_BACK_TO", "_") : null;
    String keyed = guarded.stream().anyMatch(method -> DispatchWriter.keys(method).isPresent())
        ? unique(constantNames, "KEYS_OF", "_") : null;
    List<FieldSpec> constants = new ArrayList<>();
    List<FieldSpec> calls = new ArrayList<>();
    List<MethodSpec> methods = new ArrayList<>();
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(ifaceType, "delegate")
        .addParameter(REGISTRY, "registry")
        .addStatement("this.delegate = $T.requireNonNull(delegate, $S)", Objects.class, "delegate")
        .addStatement("$T.requireNonNull(registry, $S)", Objects.class, "registry");
    int number = 0;
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
      ArgumentSlots slots = new ArgumentSlots(method.method(), type, method.returnKind().takesContinuation(), types);
      Optional<CodeBlock> keys = DispatchWriter.keys(method);
      dispatch.add(number, method, type, slots, keys);
      CodeBlock.Builder definition = definition(method, type, shared, faults)
          .add("\n.invokes($N, $L)", invokers, number);
      method.fallback().ifPresent(fallback -> definition.add("\n.fallback($N)", fallbacks));
      keys.ifPresent(present -> definition.add("\n.keys($N)", keyed));
      constants.add(FieldSpec.builder(CALL_DEFINITION, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer(definition.add("\n.build()$<").build())
          .build());
      calls.add(FieldSpec.builder(RESILIENT_CALL, call, Modifier.PRIVATE, Modifier.FINAL).build());
      constructor.addStatement("this.$N = registry.resolve($N)", call, constant);
      methods.add(spec.addCode(handOff(method, type, slots, call)).build());
      number++;
    }

    DispatchWriter.Names names = dispatch.names();
    wrapper.addField(FieldSpec.builder(INVOKER, invokers, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer("$T::$N", wrapperClass, names.invoke()).build());
    if (fallbacks != null) {
      wrapper.addField(FieldSpec.builder(FALLBACK_INVOKER, fallbacks, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer("$T::$N", wrapperClass, names.fallback()).build());
    }
    if (keyed != null) {
      wrapper.addField(FieldSpec.builder(KEYS_OF, keyed, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer("$T::$N", wrapperClass, names.keys()).build());
    }
    wrapper.addFields(shared.fields());
    wrapper.addFields(faults.fields());
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
    if (!guarded.isEmpty()) {
      wrapper.addMethods(dispatch.methods(names));
    }
    wrapper.addType(WrapperFactoryWriter.factory(model, hiddenByNested(iface)));
    return JavaFile.builder(model.packageName(), wrapper.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * @return the simple names a class nested in the wrapper would hide from its body: the member
   *     types the wrapper inherits from the interface, and the interface's type variables
   */
  private Set<String> hiddenByNested(TypeElement iface) {
    Set<String> names = new HashSet<>();
    ElementFilter.typesIn(elements.getAllMembers(iface)).forEach(type -> names.add(type.getSimpleName().toString()));
    iface.getTypeParameters().forEach(variable -> names.add(variable.getSimpleName().toString()));
    return names;
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
      spec.addTypeVariable(DispatchWriter.typeVariable(variable));
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


  /**
   * {@code CallDefinition.builder("I.m").with(RetryConfig.builder("I.m").maxAttempts(3))…}: each
   * pattern with the attributes written on it (a pattern several methods share, such as a
   * type-level breaker, once in a field of its own) the type the fallback method takes, and the exceptions the method declares.
   */
  private CodeBlock.Builder definition(MethodModel method, ExecutableType member, SharedPatterns shared,
      FaultConstructors faults) {
    CodeBlock.Builder code = CodeBlock.builder().add("$T.builder($S)$>", CALL_DEFINITION, method.callName());
    for (PatternModel pattern : method.patterns()) {
      code.add("\n.with($L)", shared.reference(pattern));
    }
    method.fallback().ifPresent(fallback -> fallback.failureType().filter(type -> !DispatchWriter.isThrowable(type)).ifPresent(failureType ->
        code.add("\n.fallbackTakes($S, $T.class)", fallback.methodName(), TypeName.get(types.erasure(failureType)))));
    method.criticality().ifPresent(level -> code.add("\n.criticality($T.$N)", CRITICALITY_LEVEL, level));
    if (method.notIdempotent()) {
      code.add("\n.notIdempotent()");
    }
    if (!member.getThrownTypes().isEmpty()) {
      // What the method may throw: fault injection may inject no other checked exception.
      code.add("\n.throwsTypes($L)", CodeBlock.join(member.getThrownTypes().stream()
          .map(thrown -> CodeBlock.of("$T.class", TypeName.get(types.erasure(thrown)))).toList(), ", "));
      // And how to make each, so injecting one named in configuration needs no reflection.
      for (TypeMirror thrown : member.getThrownTypes()) {
        if (madeFromMessage(thrown)) {
          ClassName erased = (ClassName) TypeName.get(types.erasure(thrown));
          code.add("\n.faultFactory($T.class, $N)", erased, faults.reference(erased));
        }
      }
    }
    return code;
  }

  /**
   * @return whether generated code can make the exception with {@code new X(message)}: a public,
   *     concrete class reachable from any package, with a public constructor taking one {@code String}
   */
  private boolean madeFromMessage(TypeMirror thrown) {
    if (thrown.getKind() != TypeKind.DECLARED || !(((DeclaredType) thrown).asElement() instanceof TypeElement type)
        || type.getKind() != ElementKind.CLASS || type.getModifiers().contains(Modifier.ABSTRACT)) {
      return false;
    }
    for (Element level = type; level instanceof TypeElement; level = level.getEnclosingElement()) {
      boolean nested = level.getEnclosingElement() instanceof TypeElement;
      if (!level.getModifiers().contains(Modifier.PUBLIC) || (nested && !level.getModifiers().contains(Modifier.STATIC))) {
        return false;
      }
    }
    TypeMirror string = elements.getTypeElement("java.lang.String").asType();
    return ElementFilter.constructorsIn(type.getEnclosedElements()).stream().anyMatch(constructor ->
        constructor.getModifiers().contains(Modifier.PUBLIC) && constructor.getParameters().size() == 1
            && types.isSameType(constructor.getParameters().get(0).asType(), string));
  }

  /** {@code RetryConfig.builder("I.m").maxAttempts(3)}: a pattern's builder with the attributes written on it. */
  private CodeBlock configBuilder(PatternModel pattern) {
    CodeBlock.Builder config = CodeBlock.builder().add("$T.builder($S)", ClassName.get(pattern.kind().configType()), pattern.name());
    for (Setting setting : pattern.settings()) {
      config.add(".$N($L)", setting.setter(), value(setting.value()));
    }
    if (pattern.site() != null && pattern.site().owner() instanceof TypeElement type) {
      // So describe() says the value is written on the interface, not on whichever method resolved it first.
      config.add(".declaredOnType($S)", Naming.describe(type));
    }
    return config.build();
  }

  /**
   * The patterns written once for several methods (the same kind, name and attributes: most often a
   * type-level one), each built once in a static field the definitions share: a definition only
   * reads the builders it holds.
   */
  private final class SharedPatterns {
    private final java.util.Map<String, String> fieldByCode = new java.util.LinkedHashMap<>();
    private final List<FieldSpec> fields = new ArrayList<>();

    SharedPatterns(List<MethodModel> methods, Set<String> constantNames) {
      java.util.Map<String, Integer> uses = new java.util.HashMap<>();
      java.util.Map<String, PatternModel> first = new java.util.LinkedHashMap<>();
      for (MethodModel method : methods) {
        for (PatternModel pattern : method.patterns()) {
          String code = configBuilder(pattern).toString();
          uses.merge(code, 1, Integer::sum);
          first.putIfAbsent(code, pattern);
        }
      }
      first.forEach((code, pattern) -> {
        if (uses.get(code) > 1) {
          String field = unique(constantNames, pattern.kind().name() + "_" + upperSnake(pattern.name()).replaceAll("[^A-Z0-9_]", "_"), "_");
          ClassName builder = ClassName.get(pattern.kind().configType()).nestedClass("Builder");
          fields.add(FieldSpec.builder(builder, field, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
              .initializer(configBuilder(pattern)).build());
          fieldByCode.put(code, field);
        }
      });
    }

    /** @return the shared field's name, or the pattern's builder written in place */
    CodeBlock reference(PatternModel pattern) {
      CodeBlock code = configBuilder(pattern);
      String field = fieldByCode.get(code.toString());
      return field == null ? code : CodeBlock.of("$N", field);
    }

    List<FieldSpec> fields() {
      return fields;
    }
  }

  /**
   * Each exception the interface's methods declare and fault injection can make, its {@code String}
   * constructor referenced once in a field the definitions share: a constructor reference passed
   * straight to the generic {@code faultFactory} costs {@code javac} an inference per method.
   */
  private static final class FaultConstructors {
    private static final ClassName FUNCTION = ClassName.get("java.util.function", "Function");
    private static final java.util.regex.Pattern ACRONYM_END = java.util.regex.Pattern.compile("([A-Z])([A-Z][a-z])");

    private final Set<String> constantNames;
    private final java.util.Map<ClassName, String> fieldByType = new java.util.LinkedHashMap<>();
    private final List<FieldSpec> fields = new ArrayList<>();

    FaultConstructors(Set<String> constantNames) {
      this.constantNames = constantNames;
    }

    /** @return the field holding {@code new type(message)} as a function: {@code NEW_IO_EXCEPTION} */
    String reference(ClassName type) {
      return fieldByType.computeIfAbsent(type, made -> {
        String field = unique(constantNames, "NEW_" + upperSnake(ACRONYM_END.matcher(made.simpleName()).replaceAll("$1_$2")), "_");
        fields.add(FieldSpec.builder(ParameterizedTypeName.get(FUNCTION, ClassName.get(String.class), made), field,
            Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL).initializer("$T::new", made).build());
        return field;
      });
    }

    List<FieldSpec> fields() {
      return fields;
    }
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
   * The generated method's body. A synchronous one calls its delegate itself when the runtime
   * admits the attempt at once ({@link #callingItself}). Any other hands the call over in one
   * statement: {@code return this.m.callAsync(this.delegate, a, b, c, d, x, y)}; for a {@code Mono}
   * or {@code Flux}, {@code ReactorCalls.mono(this.m, this.delegate, …)} or {@code flux}; for a
   * Kotlin {@code suspend} function, {@code CoroutineCalls.suspending(this.m, this.delegate, …,
   * $completion)}, for a {@code Flow}, {@code CoroutineCalls.flow(…)}; the arguments in their slots.
   */
  private static CodeBlock handOff(MethodModel method, ExecutableType type, ArgumentSlots slots, String callField) {
    if (method.callsDelegateItself()) {
      return callingItself(method, type, slots, callField);
    }
    CodeBlock call;
    if (method.returnKind() == ReturnKind.MONO || method.returnKind() == ReturnKind.FLUX) {
      call = CodeBlock.of("$T.$N(this.$N, this.delegate, $L)", REACTOR_CALLS,
          method.returnKind() == ReturnKind.MONO ? "mono" : "flux", callField, slots.callArguments());
    } else if (method.returnKind() == ReturnKind.SUSPEND) {
      // brace-kotlin's suspending call is itself a suspend function: the caller's continuation goes last.
      List<? extends VariableElement> parameters = method.method().getParameters();
      call = CodeBlock.of("$T.suspending(this.$N, this.delegate, $L, $N)", DispatchWriter.COROUTINE_CALLS, callField,
          slots.callArguments(), parameters.get(parameters.size() - 1).getSimpleName().toString());
    } else if (method.returnKind() == ReturnKind.FLOW) {
      call = CodeBlock.of("$T.flow(this.$N, this.delegate, $L)", DispatchWriter.COROUTINE_CALLS, callField, slots.callArguments());
    } else {
      String form = method.isAsync() ? "callAsync" : "call";
      call = CodeBlock.of("this.$N.$N(this.delegate, $L)", callField, form, slots.callArguments());
    }
    return type.getReturnType().getKind() == TypeKind.VOID
        ? CodeBlock.builder().addStatement("$L", call).build()
        : CodeBlock.builder().addStatement("return $L", call).build();
  }

  /**
   * A synchronous method's body: the attempt admitted at once calls the delegate here, a call site
   * of its own whose result is never boxed, and hands the runtime its outcome; everything else
   * (not admitted now, a failure to retry, answer or throw) the runtime does from the arguments in
   * their slots. Its locals are named apart from the method's parameters.
   *
   * <pre>{@code
   * long at = this.m.instant();
   * Object held = this.m.admitNow(at);
   * if (this.m.admitted(held)) {
   *   try {
   *     R result = this.delegate.m(p);
   *     this.m.succeeded(held, at);
   *     return result;
   *   } catch (Throwable failure) {
   *     held = this.m.failed(held, at, failure);
   *   }
   * }
   * return this.m.staged(held, at, this.delegate, a, b, c, d, x, y);
   * }</pre>
   */
  private static CodeBlock callingItself(MethodModel method, ExecutableType type, ArgumentSlots slots, String callField) {
    Set<String> taken = new HashSet<>();
    method.method().getParameters().forEach(parameter -> taken.add(parameter.getSimpleName().toString()));
    String at = unique(taken, "at", "");
    String held = unique(taken, "held", "");
    String result = unique(taken, "result", "");
    String failure = unique(taken, "failure", "");
    boolean returns = type.getReturnType().getKind() != TypeKind.VOID;
    String giving = returns ? "return " : "";
    CodeBlock delegateCall = CodeBlock.of("this.delegate.$N($L)", method.method().getSimpleName(), arguments(method.method()));
    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("long $N = this.$N.instant()", at, callField)
        .addStatement("$T $N = this.$N.admitNow($N)", Object.class, held, callField, at)
        .beginControlFlow("if (this.$N.admitted($N))", callField, held)
        .beginControlFlow("try");
    if (returns) {
      code.addStatement("$T $N = $L", TypeName.get(type.getReturnType()), result, delegateCall);
    } else {
      code.addStatement("$L", delegateCall);
    }
    code.addStatement("this.$N.succeeded($N, $N)", callField, held, at);
    // A void method returns here too: what follows the try is the staged call, for a failed attempt.
    code.addStatement(returns ? CodeBlock.of("return $N", result) : CodeBlock.of("return"));
    return code.nextControlFlow("catch ($T $N)", Throwable.class, failure)
        .addStatement("$N = this.$N.failed($N, $N, $N)", held, callField, held, at, failure)
        .endControlFlow()
        .endControlFlow()
        .addStatement("$Lthis.$N.staged($N, $N, this.delegate, $L)", giving, callField, held, at, slots.callArguments())
        .build();
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

  static String unique(Set<String> taken, String base, String separator) {
    String name = base;
    for (int i = 2; !taken.add(name); i++) {
      name = base + separator + i;
    }
    return name;
  }

  private static final java.util.regex.Pattern WORD_START = java.util.regex.Pattern.compile("([a-z0-9])([A-Z])");

  private static String upperSnake(String camel) {
    return WORD_START.matcher(camel).replaceAll("$1_$2").toUpperCase(Locale.ROOT);
  }
}
