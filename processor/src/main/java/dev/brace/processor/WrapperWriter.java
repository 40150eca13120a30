package dev.brace.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Writes a {@code Resilient*} wrapper from its model. Each generated method is one statement in
 * one shape whatever its patterns: it hands the delegate call (and its keys and fallback, when it
 * has them) to the {@code ResilientCall} the registry resolved for it. Every decision is the
 * runtime's; the static {@code CallDefinition} holds only what the annotations wrote.
 */
final class WrapperWriter {
  private static final ClassRef GENERATED = ClassRef.of("javax.annotation.processing", "Generated");
  private static final ClassRef REGISTRY = ClassRef.of("dev.brace.runtime", "Registry");
  private static final ClassRef RESILIENT_CALL = ClassRef.of("dev.brace.runtime.support", "ResilientCall");
  private static final ClassRef CALL_DEFINITION = ClassRef.of("dev.brace.runtime.support", "CallDefinition");
  private static final ClassRef CRITICALITY_LEVEL = ClassRef.of("dev.brace", "Criticality", "Level");
  private static final ClassRef INVOKER = ClassRef.of("dev.brace.runtime.support", "SlotInvoker");
  private static final ClassRef FALLBACK_INVOKER = ClassRef.of("dev.brace.runtime.support", "FallbackInvoker");
  private static final ClassRef KEYS_OF = ClassRef.of("dev.brace.runtime.support", "KeysOf");
  private static final ClassRef REACTOR_CALLS = ClassRef.of("dev.brace.reactor", "ReactorCalls");

  private final Types types;
  private final Elements elements;

  WrapperWriter(Types types, Elements elements) {
    this.types = types;
    this.elements = elements;
  }

  /**
   * One guarded method's part of the wrapper: its static definition, the field holding what the
   * registry resolved from it, and its one statement.
   *
   * @param definition {@code CallDefinition.builder("I.m")}, then a line for each call on the builder
   */
  /** @return the simple names of the member types of the interface, its own and those it inherits */
  private Set<String> inheritedMemberTypes(TypeElement iface) {
    Set<String> names = new HashSet<>();
    ElementFilter.typesIn(elements.getAllMembers(iface)).forEach(type -> names.add(type.getSimpleName().toString()));
    return names;
  }

  private record Guarded(String constant, List<Code> definition, String call, Code handOff) {}

  JavaSource write(WrapperModel model) {
    TypeElement iface = model.iface();
    List<TypeCode.Variable> typeVariables = iface.getTypeParameters().stream().map(TypeCode::variable).toList();
    ClassRef wrapperClass = ClassRef.of(model.packageName(), model.className());
    Code ifaceType = TypeCode.withOwnVariables(iface);
    DeclaredType wrapped = (DeclaredType) iface.asType();

    Set<String> constantNames = new HashSet<>();
    Set<String> fieldNames = new HashSet<>(Set.of("delegate"));
    Set<String> methodNames = new HashSet<>(Set.of("wrap", "equals", "hashCode", "toString"));
    model.methods().forEach(method -> methodNames.add(method.method().getSimpleName().toString()));
    DispatchWriter dispatch = new DispatchWriter(types, iface, wrapperClass, methodNames);
    List<MethodModel> guardedMethods = model.methods().stream().filter(MethodModel::isGuarded).toList();
    SharedPatterns shared = new SharedPatterns(guardedMethods, constantNames);
    String invokers = unique(constantNames, "DELEGATE_TO", "_");
    String fallbacks = guardedMethods.stream().anyMatch(method -> method.fallback().isPresent())
        ? unique(constantNames, "FALL_BACK_TO", "_") : null;
    String keyed = guardedMethods.stream().anyMatch(method -> DispatchWriter.keys(method).isPresent())
        ? unique(constantNames, "KEYS_OF", "_") : null;
    List<Guarded> guarded = new ArrayList<>();
    List<Code> bodies = new ArrayList<>();
    int number = 0;
    for (MethodModel method : model.methods()) {
      ExecutableType type = (ExecutableType) types.asMemberOf(wrapped, method.method());
      if (!method.isGuarded()) {
        bodies.add(Code.of(returnPrefix(method) + "this.delegate.$N($L)",
            method.method().getSimpleName(), arguments(method.method())));
        continue;
      }
      String name = method.method().getSimpleName().toString();
      String constant = unique(constantNames, upperSnake(name), "_");
      String call = unique(fieldNames, name, "");
      ArgumentSlots slots = new ArgumentSlots(method.method(), type, types);
      Optional<Code> keys = DispatchWriter.keys(method);
      dispatch.add(number, method, type, slots, keys);
      List<Code> definition = definition(method, type, shared);
      definition.add(Code.of(".invokes($N, $L)", invokers, number));
      method.fallback().ifPresent(fallback -> definition.add(Code.of(".fallback($N)", fallbacks)));
      keys.ifPresent(present -> definition.add(Code.of(".keys($N)", keyed)));
      Code handOff = handOff(method, type, slots, call);
      guarded.add(new Guarded(constant, definition, call, handOff));
      bodies.add(handOff);
      number++;
    }

    JavaSource source = new JavaSource(model.packageName(), model.className(), typeVariables, inheritedMemberTypes(iface));
    source.line("@$T($S)", GENERATED, BraceProcessor.class.getCanonicalName());
    source.beginBlock((model.isPublic() ? "public " : "") + "final class $N$L implements $L",
        model.className(), TypeCode.declarations(typeVariables), ifaceType);
    DispatchWriter.Names names = dispatch.names();
    source.statement("private static final $T $N = $T::$N", INVOKER, invokers, wrapperClass, names.invoke());
    if (fallbacks != null) {
      source.blankLine().statement("private static final $T $N = $T::$N", FALLBACK_INVOKER, fallbacks, wrapperClass, names.fallback());
    }
    if (keyed != null) {
      source.blankLine().statement("private static final $T $N = $T::$N", KEYS_OF, keyed, wrapperClass, names.keys());
    }
    shared.write(source);
    for (Guarded method : guarded) {
      source.blankLine().line("private static final $T $N = $L", CALL_DEFINITION, method.constant(), method.definition().get(0));
      source.indent();
      method.definition().subList(1, method.definition().size()).forEach(source::line);
      source.line(".build();").outdent();
    }
    source.blankLine().statement("private final $L delegate", ifaceType);
    guarded.forEach(method -> source.blankLine().statement("private final $T $N", RESILIENT_CALL, method.call()));

    source.blankLine().method("private", model.className())
        .parameter(ifaceType, "delegate")
        .parameter(REGISTRY, "registry")
        .begin();
    source.statement("this.delegate = $T.requireNonNull(delegate, $S)", Objects.class, "delegate");
    source.statement("$T.requireNonNull(registry, $S)", Objects.class, "registry");
    guarded.forEach(method -> source.statement("this.$N = registry.resolve($N)", method.call(), method.constant()));
    source.endMethod();
    source.blankLine().method("public static", "wrap")
        .typeVariables(typeVariables)
        .returns(ifaceType)
        .parameter(ifaceType, "delegate")
        .begin();
    source.statement("return wrap(delegate, $T.defaultRegistry())", REGISTRY).endMethod();
    source.blankLine().method("public static", "wrap")
        .typeVariables(typeVariables)
        .returns(ifaceType)
        .parameter(ifaceType, "delegate")
        .parameter(REGISTRY, "registry")
        .begin();
    source.statement(typeVariables.isEmpty() ? "return new $T(delegate, registry)" : "return new $T<>(delegate, registry)",
        wrapperClass).endMethod();

    for (int i = 0; i < model.methods().size(); i++) {
      ExecutableElement method = model.methods().get(i).method();
      source.blankLine();
      signature(source, method, (ExecutableType) types.asMemberOf(wrapped, method)).begin();
      source.statement("$L", bodies.get(i)).endMethod();
    }
    writeObjectMethods(source);
    if (!guardedMethods.isEmpty()) {
      dispatch.write(source, names);
    }
    source.endBlock();
    return source;
  }

  /**
   * The method's signature as a member of the wrapped interface (type arguments of a generic
   * super-interface substituted), with the interface's parameter names.
   */
  private static JavaSource.Method signature(JavaSource source, ExecutableElement method, ExecutableType type) {
    JavaSource.Method signature = source.method("public", method.getSimpleName().toString())
        .annotation("@$T", Override.class)
        .typeVariables(type.getTypeVariables().stream().map(TypeCode::variable).toList())
        .returns(TypeCode.of(type.getReturnType()));
    List<? extends VariableElement> parameters = method.getParameters();
    for (int i = 0; i < parameters.size(); i++) {
      boolean varargs = method.isVarArgs() && i == parameters.size() - 1;
      signature.parameter(TypeCode.of(type.getParameterTypes().get(i), varargs), parameters.get(i).getSimpleName().toString());
    }
    for (TypeMirror thrown : type.getThrownTypes()) {
      signature.throwing(thrown);
    }
    return signature;
  }

  /**
   * {@code CallDefinition.builder("I.m")}, then a line for each pattern with the attributes written
   * on it (a pattern several methods share, such as a type-level breaker, once in a field of its
   * own), the type the fallback method takes, and the exceptions the method declares.
   */
  private List<Code> definition(MethodModel method, ExecutableType member, SharedPatterns shared) {
    List<Code> lines = new ArrayList<>();
    lines.add(Code.of("$T.builder($S)", CALL_DEFINITION, method.callName()));
    for (PatternModel pattern : method.patterns()) {
      lines.add(Code.of(".with($L)", shared.reference(pattern)));
    }
    method.fallback().ifPresent(fallback -> fallback.failureType().filter(type -> !DispatchWriter.isThrowable(type)).ifPresent(failureType ->
        lines.add(Code.of(".fallbackTakes($S, $T.class)", fallback.methodName(), types.erasure(failureType)))));
    method.criticality().ifPresent(level -> lines.add(Code.of(".criticality($T.$N)", CRITICALITY_LEVEL, level)));
    if (method.notIdempotent()) {
      lines.add(Code.of(".notIdempotent()"));
    }
    if (!member.getThrownTypes().isEmpty()) {
      // What the method may throw: fault injection may inject no other checked exception.
      lines.add(Code.of(".throwsTypes($L)", Code.join(member.getThrownTypes().stream()
          .map(thrown -> Code.of("$T.class", types.erasure(thrown))).toList(), ", ")));
      // And how to make each, so injecting one named in configuration needs no reflection.
      for (TypeMirror thrown : member.getThrownTypes()) {
        if (madeFromMessage(thrown)) {
          TypeMirror erased = types.erasure(thrown);
          lines.add(Code.of(".faultFactory($T.class, $T::new)", erased, erased));
        }
      }
    }
    return lines;
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
  private Code configBuilder(PatternModel pattern) {
    List<Code> calls = new ArrayList<>();
    calls.add(Code.of("$T.builder($S)", pattern.kind().configType(), pattern.name()));
    for (Setting setting : pattern.settings()) {
      calls.add(Code.of(".$N($L)", setting.setter(), value(setting.value())));
    }
    if (pattern.site() != null && pattern.site().owner() instanceof TypeElement type) {
      // So describe() says the value is written on the interface, not on whichever method resolved it first.
      calls.add(Code.of(".declaredOnType($S)", Naming.describe(type)));
    }
    return Code.join(calls, "");
  }

  /**
   * The patterns written once for several methods (the same kind, name and attributes: most often a
   * type-level one), each built once in a static field the definitions share: a definition only
   * reads the builders it holds.
   */
  private final class SharedPatterns {
    private final Map<Code, String> fieldByCode = new LinkedHashMap<>();
    private final List<Code> fields = new ArrayList<>();

    SharedPatterns(List<MethodModel> methods, Set<String> constantNames) {
      Map<Code, Integer> uses = new HashMap<>();
      Map<Code, PatternModel> first = new LinkedHashMap<>();
      for (MethodModel method : methods) {
        for (PatternModel pattern : method.patterns()) {
          Code code = configBuilder(pattern);
          uses.merge(code, 1, Integer::sum);
          first.putIfAbsent(code, pattern);
        }
      }
      first.forEach((code, pattern) -> {
        if (uses.get(code) > 1) {
          String field = unique(constantNames, pattern.kind().name() + "_" + upperSnake(pattern.name()).replaceAll("[^A-Z0-9_]", "_"), "_");
          ClassRef builder = ClassRef.of(pattern.kind().configType()).nested("Builder");
          fields.add(Code.of("private static final $T $N = $L", builder, field, code));
          fieldByCode.put(code, field);
        }
      });
    }

    /** @return the shared field's name, or the pattern's builder written in place */
    Code reference(PatternModel pattern) {
      Code code = configBuilder(pattern);
      String field = fieldByCode.get(code);
      return field == null ? code : Code.of("$N", field);
    }

    /** Writes the shared fields, each after a blank line. */
    void write(JavaSource source) {
      fields.forEach(field -> source.blankLine().statement("$L", field));
    }
  }

  private Code value(Setting.Value value) {
    if (value instanceof Setting.Text text) {
      return Code.of("$S", text.text());
    }
    if (value instanceof Setting.EnumConstant constant) {
      return Code.of("$T.$N", constant.type(), constant.constant());
    }
    if (value instanceof Setting.Types classes) {
      return Code.join(classes.types().stream().map(type -> Code.of("$T.class", types.erasure(type))).toList(), ", ");
    }
    if (value instanceof Setting.NewInstance instance) {
      return Code.of("new $T()", ClassRef.of((TypeElement) types.asElement(instance.type())));
    }
    if (value instanceof Setting.Number number) {
      return Code.of("$L", number.number());
    }
    if (value instanceof Setting.Flag flag) {
      return Code.of("$L", flag.flag());
    }
    throw new IllegalArgumentException("not passed to a config: " + value);
  }

  /**
   * The generated method's one statement: {@code return this.m.call(this.delegate, a, b, c, d, x, y)}
   * (or {@code callAsync}; for a {@code Mono} or {@code Flux}, {@code ReactorCalls.mono(this.m,
   * this.delegate, …)} or {@code flux}), the arguments in their slots; without its semicolon.
   */
  private static Code handOff(MethodModel method, ExecutableType type, ArgumentSlots slots, String callField) {
    Code call;
    if (method.returnKind() == ReturnKind.MONO || method.returnKind() == ReturnKind.FLUX) {
      call = Code.of("$T.$N(this.$N, this.delegate, $L)", REACTOR_CALLS,
          method.returnKind() == ReturnKind.MONO ? "mono" : "flux", callField, slots.callArguments());
    } else {
      String form = method.isAsync() ? "callAsync" : "call";
      call = Code.of("this.$N.$N(this.delegate, $L)", callField, form, slots.callArguments());
    }
    return type.getReturnType().getKind() == TypeKind.VOID ? call : Code.of("return $L", call);
  }

  /** {@code equals}, {@code hashCode} and {@code toString}, each forwarded to the delegate. */
  private static void writeObjectMethods(JavaSource source) {
    source.blankLine().method("public", "equals")
        .annotation("@$T", Override.class)
        .returns(boolean.class)
        .parameter(Object.class, "other")
        .begin();
    source.statement("return other == this || this.delegate.equals(other)").endMethod();
    source.blankLine().method("public", "hashCode")
        .annotation("@$T", Override.class)
        .returns(int.class)
        .begin();
    source.statement("return this.delegate.hashCode()").endMethod();
    source.blankLine().method("public", "toString")
        .annotation("@$T", Override.class)
        .returns(String.class)
        .begin();
    source.statement("return this.delegate.toString()").endMethod();
  }

  private static String returnPrefix(MethodModel method) {
    return method.method().getReturnType().getKind() == TypeKind.VOID ? "" : "return ";
  }

  private static Code arguments(ExecutableElement method) {
    return Code.join(method.getParameters().stream().map(parameter -> Code.of("$N", parameter.getSimpleName())).toList(), ", ");
  }

  static String unique(Set<String> taken, String base, String separator) {
    String name = base;
    for (int i = 2; !taken.add(name); i++) {
      name = base + separator + i;
    }
    return name;
  }

  private static final Pattern WORD_START = Pattern.compile("([a-z0-9])([A-Z])");

  private static String upperSnake(String camel) {
    return WORD_START.matcher(camel).replaceAll("$1_$2").toUpperCase(Locale.ROOT);
  }
}
