package dev.brace.processor;

import com.google.auto.service.AutoService;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Lists every {@code WrapperFactory} of a compilation in {@code
 * META-INF/services/dev.brace.runtime.support.WrapperFactory}, the index {@code Brace.wrap} reads.
 *
 * <p>A processor of its own, apart from {@link BraceProcessor}, because one file lists many
 * interfaces: for Gradle this processor is aggregating, and {@link BraceProcessor}, which writes one
 * wrapper per interface, stays isolating. It finds the factories by {@code
 * WrapperFactory.Indexed}, which they keep in their class files, so when Gradle recompiles only
 * some interfaces it hands this processor the unchanged factories too and the index stays whole.
 */
@AutoService(Processor.class)
public final class WrapperIndexProcessor extends AbstractProcessor {
  private static final String INDEXED = WrapperFactory.Indexed.class.getCanonicalName();

  private final Set<String> factories = new TreeSet<>();
  private final List<Element> originating = new ArrayList<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(INDEXED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    TypeElement indexed = processingEnv.getElementUtils().getTypeElement(INDEXED);
    if (indexed != null && !round.processingOver()) {
      for (TypeElement factory : ElementFilter.typesIn(round.getElementsAnnotatedWith(indexed))) {
        if (factories.add(processingEnv.getElementUtils().getBinaryName(factory).toString())) {
          originating.add(factory);
        }
      }
    }
    if (round.processingOver() && !factories.isEmpty()) {
      write();
    }
    return false;
  }

  private void write() {
    try {
      FileObject file = processingEnv.getFiler().createResource(
          StandardLocation.CLASS_OUTPUT, "", WrapperFactory.SERVICE_FILE, originating.toArray(new Element[0]));
      try (Writer out = file.openWriter()) {
        out.write("# Written by brace-processor: the wrappers of this module, which Brace.wrap finds here.\n");
        for (String factory : factories) {
          out.write(factory);
          out.write('\n');
        }
      }
    } catch (IOException | RuntimeException failed) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "[brace] brace-processor could not write "
          + WrapperFactory.SERVICE_FILE + ", the index of this module's wrappers: " + failed);
    }
  }
}
