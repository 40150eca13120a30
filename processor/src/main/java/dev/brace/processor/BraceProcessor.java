package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import com.google.auto.service.AutoService;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * Generates a {@code Resilient<Interface>} wrapper for every interface that uses a Brace
 * annotation (on itself, on a method, or through a super-interface). It only coordinates:
 * {@link InterfaceValidator} turns an interface into a {@link WrapperModel} or a report, {@link
 * Reporter} prints the report, {@link WrapperWriter} writes the model. An interface with an error
 * gets no wrapper; the others still do. Interfaces whose signatures name types that another
 * processor has not generated yet wait for a later round.
 */
@AutoService(Processor.class)
public final class BraceProcessor extends AbstractProcessor {
  private final Set<String> deferred = new LinkedHashSet<>();
  private final Set<String> done = new HashSet<>();
  private Reporter reporter;

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.copyOf(annotationNames());
  }

  /** @return every annotation the processor reads: each pattern's, and {@code @NotIdempotent} */
  private static List<String> annotationNames() {
    List<String> names = Kind.annotated().stream().map(kind -> kind.annotation().getCanonicalName()).collect(Collectors.toList());
    names.add(IdempotenceValidator.NOT_IDEMPOTENT);
    return names;
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (reporter == null) {
      reporter = new Reporter(processingEnv.getMessager());
    }
    try {
      if (round.processingOver()) {
        reportUnresolved();
      } else {
        processRound(round);
      }
    } catch (RuntimeException | LinkageError bug) {
      reporter.bug(null, "this round", bug);
    }
    return false;
  }

  private void processRound(RoundEnvironment round) {
    Report placements = new Report();
    checkPlacements(round, placements);
    reporter.print(placements);

    Set<TypeElement> interfaces = new LinkedHashSet<>();
    for (String name : deferred) {
      Optional.ofNullable(processingEnv.getElementUtils().getTypeElement(name)).ifPresent(interfaces::add);
    }
    deferred.clear();
    collectInterfaces(round.getRootElements(), interfaces);
    for (TypeElement iface : interfaces) {
      String name = iface.getQualifiedName().toString();
      if (!done.contains(name)) {
        generate(iface, name);
      }
    }
  }

  private void generate(TypeElement iface, String name) {
    Report report = new Report();
    // Names are compared within this interface only: an isolating processor sees one interface
    // (and what it inherits) per generated file, so a check across interfaces would come and go
    // with what an incremental build recompiles. The registry compares every site of a name when
    // the wrappers are created.
    InterfaceValidator validator = new InterfaceValidator(processingEnv, report, new NameUses());
    try {
      if (validator.hasUnresolvedTypes(iface)) {
        deferred.add(name);
        return;
      }
      done.add(name);
      Optional<WrapperModel> model = validator.validate(iface);
      reporter.print(report);
      if (model.isPresent()) {
        new WrapperWriter(processingEnv.getTypeUtils(), processingEnv.getElementUtils()).write(model.get()).writeTo(processingEnv.getFiler());
        new ManifestWriter(processingEnv.getFiler(), processingEnv.getElementUtils()).write(model.get());
        new NativeImageMetadataWriter(processingEnv.getFiler(), processingEnv.getElementUtils()).write(model.get());
      }
    } catch (IOException | RuntimeException | LinkageError bug) {
      reporter.print(report);
      reporter.bug(iface, Naming.describe(iface), bug);
    }
  }

  /** A Brace annotation anywhere but on an interface or an interface method is a mistake. */
  private void checkPlacements(RoundEnvironment round, Report report) {
    Map<TypeElement, String> annotations = new LinkedHashMap<>();
    for (String name : annotationNames()) {
      TypeElement annotation = processingEnv.getElementUtils().getTypeElement(name);
      if (annotation != null) {
        annotations.put(annotation, name);
      }
    }
    if (annotations.isEmpty()) {
      return;
    }
    // One walk of the round for every annotation: a walk per annotation costs a build each time.
    for (Element element : round.getElementsAnnotatedWithAny(annotations.keySet().toArray(new TypeElement[0]))) {
      boolean onInterface = element.getKind() == ElementKind.INTERFACE
          || (element.getKind() == ElementKind.METHOD
              && element.getEnclosingElement().getKind() == ElementKind.INTERFACE);
      if (onInterface) {
        continue;
      }
      for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
        TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
        if (annotations.containsKey(type)) {
          report.error(element, mirror, Message.NOT_AN_INTERFACE,
              type.getSimpleName(), describeKind(element), Naming.describe(element));
        }
      }
    }
  }

  private static String describeKind(Element element) {
    return switch (element.getKind()) {
      case CLASS -> "class";
      case ENUM -> "enum";
      case RECORD -> "record";
      case ANNOTATION_TYPE -> "annotation type";
      case METHOD -> "method";
      default -> element.getKind().toString().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    };
  }

  private void collectInterfaces(Collection<? extends Element> elements, Set<TypeElement> interfaces) {
    for (TypeElement type : ElementFilter.typesIn(elements)) {
      if (type.getKind() == ElementKind.INTERFACE
          && InterfaceValidator.usesBrace(type, processingEnv.getElementUtils(), processingEnv.getTypeUtils())) {
        interfaces.add(type);
      }
      collectInterfaces(type.getEnclosedElements(), interfaces);
    }
  }

  private void reportUnresolved() {
    Report report = new Report();
    for (String name : deferred) {
      TypeElement iface = processingEnv.getElementUtils().getTypeElement(name);
      if (iface != null) {
        report.error(iface, Message.UNRESOLVED_TYPE, Naming.describe(iface), "see the compiler's other errors");
      }
    }
    reporter.print(report);
    deferred.clear();
  }
}
