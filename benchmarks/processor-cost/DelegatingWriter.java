import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedOptions;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;

/**
 * The least an annotation processor that writes a source per interface can do, for the
 * processor-cost benchmark's lower bound: for each interface of the compilation it writes, through
 * the filer, the delegating wrapper {@code GenerateClients --delegating DIR} wrote for it
 * beforehand ({@code -Adelegating.dir=DIR}). It checks nothing, builds no model and renders no
 * signature (the file is copied, not written from the interface's elements), so whatever it costs
 * {@code javac} any such processor costs at least: the filer, the round its files start, and
 * compiling what it wrote. It claims no annotation, so a processor beside it sees every one.
 */
@SupportedOptions("delegating.dir")
public final class DelegatingWriter extends AbstractProcessor {
  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("dev.brace.*");
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    Path dir = Path.of(processingEnv.getOptions().get("delegating.dir"));
    for (Element root : round.getRootElements()) {
      if (root.getKind() != ElementKind.INTERFACE) {
        continue;
      }
      TypeElement iface = (TypeElement) root;
      String pkg = processingEnv.getElementUtils().getPackageOf(iface).getQualifiedName().toString();
      String name = "Delegating" + iface.getSimpleName();
      Path wrapper = dir.resolve(pkg.replace('.', '/')).resolve(name + ".java");
      if (!Files.exists(wrapper)) {
        continue;
      }
      try (Writer out = processingEnv.getFiler().createSourceFile(pkg + "." + name, iface).openWriter()) {
        out.write(Files.readString(wrapper));
      } catch (IOException failure) {
        throw new UncheckedIOException(failure);
      }
    }
    return false;
  }
}
