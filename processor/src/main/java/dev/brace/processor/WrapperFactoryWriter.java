package dev.brace.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.Collections;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes each wrapper's {@code WrapperFactory}, a class nested in the wrapper ({@code
 * Resilient<Interface>.Factory}): the entry of the index {@code Brace.wrap} reads with {@code
 * ServiceLoader} (which {@link WrapperIndexProcessor} lists). Nested rather than a file of its own,
 * so the processor writes and javac compiles one source per interface, and the factory has the
 * wrapper's originating element, so this part of the processor stays isolating.
 */
final class WrapperFactoryWriter {
  /** The factory's simple name, unless the interface has a member type of that name. */
  private static final String NAME = "Factory";

  static final ClassName WRAPPER_FACTORY = ClassName.get("dev.brace.runtime.support", "WrapperFactory");
  static final ClassName INDEXED = WRAPPER_FACTORY.nestedClass("Indexed");
  private static final ClassName REGISTRY = ClassName.get("dev.brace.runtime", "Registry");

  private WrapperFactoryWriter() {}

  /**
   * @param model the validated interface
   * @param taken the simple names the factory must not take: the member types the wrapper
   *     inherits and its type variables, which a nested class of the same name would hide
   * @return the factory, to nest in the wrapper
   */
  static TypeSpec factory(WrapperModel model, Set<String> taken) {
    TypeElement iface = model.iface();
    ClassName wrapper = ClassName.get(model.packageName(), model.className());
    ClassName raw = ClassName.get(iface);
    // A generic interface is cast with wildcards, which the wrapper's wrap(Repo<T>, Registry)
    // takes by capture: no unchecked conversion, so no warning in the user's build.
    TypeName cast = iface.getTypeParameters().isEmpty() ? raw : ParameterizedTypeName.get(raw,
        Collections.nCopies(iface.getTypeParameters().size(), WildcardTypeName.subtypeOf(Object.class)).toArray(TypeName[]::new));
    TypeName anyClass = ParameterizedTypeName.get(ClassName.get(Class.class), WildcardTypeName.subtypeOf(Object.class));
    String name = NAME;
    while (taken.contains(name)) {
      name += "_";
    }
    return TypeSpec.classBuilder(name)
        .addJavadoc("Lists $L's wrapper in the index {@code Brace.wrap} reads.\n", Naming.interfaceName(iface))
        .addAnnotation(INDEXED)
        // Public with the implicit public constructor, as ServiceLoader requires of a provider,
        // even when the interface and its wrapper are not: its class file is public all the same.
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addSuperinterface(WRAPPER_FACTORY)
        .addMethod(MethodSpec.methodBuilder("type")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(anyClass)
            .addStatement("return $T.class", raw)
            .build())
        .addMethod(MethodSpec.methodBuilder("wrapperType")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(anyClass)
            .addStatement("return $T.class", wrapper)
            .build())
        .addMethod(MethodSpec.methodBuilder("wrap")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Object.class)
            .addParameter(Object.class, "delegate")
            .addParameter(REGISTRY, "registry")
            .addStatement("return $T.wrap(($T) delegate, registry)", wrapper, cast)
            .build())
        .build();
  }
}
