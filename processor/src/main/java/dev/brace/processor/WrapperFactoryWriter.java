package dev.brace.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import java.util.Collections;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes, beside each wrapper, its {@code WrapperFactory}: {@code Resilient<Interface>_WrapperFactory},
 * the entry of the index {@code Brace.wrap} reads with {@code ServiceLoader} (which {@link
 * WrapperIndexProcessor} lists). One file per interface, with the interface as its originating
 * element, so this part of the processor stays isolating.
 */
final class WrapperFactoryWriter {
  /** What a factory's name adds to its wrapper's. */
  static final String SUFFIX = "_WrapperFactory";

  private static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  private static final ClassName REGISTRY = ClassName.get("dev.brace.runtime", "Registry");
  static final ClassName WRAPPER_FACTORY = ClassName.get("dev.brace.runtime.support", "WrapperFactory");
  static final ClassName INDEXED = WRAPPER_FACTORY.nestedClass("Indexed");

  private WrapperFactoryWriter() {}

  /**
   * @param model the validated interface, whose wrapper is written too
   * @return the factory's source
   */
  static JavaFile write(WrapperModel model) {
    TypeElement iface = model.iface();
    ClassName wrapper = ClassName.get(model.packageName(), model.className());
    ClassName raw = ClassName.get(iface);
    // A generic interface is cast with wildcards, which the wrapper's wrap(Repo<T>, Registry)
    // takes by capture: no unchecked conversion, so no warning in the user's build.
    TypeName cast = iface.getTypeParameters().isEmpty() ? raw : ParameterizedTypeName.get(raw,
        Collections.nCopies(iface.getTypeParameters().size(), WildcardTypeName.subtypeOf(Object.class)).toArray(TypeName[]::new));
    TypeName anyClass = ParameterizedTypeName.get(ClassName.get(Class.class), WildcardTypeName.subtypeOf(Object.class));
    TypeSpec factory = TypeSpec.classBuilder(model.className() + SUFFIX)
        .addOriginatingElement(iface)
        .addJavadoc("Lists $L's wrapper in the index {@code Brace.wrap} reads.\n", Naming.interfaceName(iface))
        .addAnnotation(AnnotationSpec.builder(GENERATED)
            .addMember("value", "$S", BraceProcessor.class.getCanonicalName())
            .build())
        .addAnnotation(INDEXED)
        // Public with the implicit public constructor, as ServiceLoader requires of a provider,
        // even when the interface and its wrapper are not.
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
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
    return JavaFile.builder(model.packageName(), factory).skipJavaLangImports(true).indent("  ").build();
  }
}
