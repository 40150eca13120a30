import dev.brace.processor.BraceProcessor;
import java.io.OutputStream;
import java.io.Writer;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.Completion;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;

/**
 * Brace's processor with everything it writes dropped, for the processor-cost benchmark: it
 * validates, models and renders every wrapper and manifest as it always does, and the filer it is
 * given throws the text away, so no round follows and nothing of it is compiled. Beside {@link
 * DelegatingWriter} it is the least Brace's checks can cost on top of the least wrapper (an upper
 * estimate of the checks alone: rendering a wrapper is included, about 2 s for 250 interfaces).
 */
public final class ValidatingOnly implements Processor {
  private final BraceProcessor brace = new BraceProcessor();

  @Override
  public void init(ProcessingEnvironment env) {
    brace.init(new Dropping(env));
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    return brace.process(annotations, round);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return brace.getSupportedOptions();
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return brace.getSupportedAnnotationTypes();
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return brace.getSupportedSourceVersion();
  }

  @Override
  public Iterable<? extends Completion> getCompletions(Element element, AnnotationMirror annotation,
      ExecutableElement member, String userText) {
    return brace.getCompletions(element, annotation, member, userText);
  }

  /** The compiler's environment, but for a filer that drops what is written. */
  private static final class Dropping implements ProcessingEnvironment {
    private final ProcessingEnvironment env;
    private final Filer filer;

    Dropping(ProcessingEnvironment env) {
      this.env = env;
      Filer real = env.getFiler();
      this.filer = new Filer() {
        @Override
        public JavaFileObject createSourceFile(CharSequence name, Element... originating) {
          return dropped(JavaFileObject.Kind.SOURCE);
        }

        @Override
        public JavaFileObject createClassFile(CharSequence name, Element... originating) {
          return dropped(JavaFileObject.Kind.CLASS);
        }

        @Override
        public FileObject createResource(JavaFileManager.Location location, CharSequence module,
            CharSequence relativeName, Element... originating) {
          return dropped(JavaFileObject.Kind.OTHER);
        }

        @Override
        public FileObject getResource(JavaFileManager.Location location, CharSequence module,
            CharSequence relativeName) throws java.io.IOException {
          return real.getResource(location, module, relativeName);
        }
      };
    }

    private static JavaFileObject dropped(JavaFileObject.Kind kind) {
      return new SimpleJavaFileObject(URI.create("dropped:/x" + kind.extension), kind) {
        @Override
        public Writer openWriter() {
          return Writer.nullWriter();
        }

        @Override
        public OutputStream openOutputStream() {
          return OutputStream.nullOutputStream();
        }
      };
    }

    @Override
    public Map<String, String> getOptions() {
      return env.getOptions();
    }

    @Override
    public Messager getMessager() {
      return env.getMessager();
    }

    @Override
    public Filer getFiler() {
      return filer;
    }

    @Override
    public Elements getElementUtils() {
      return env.getElementUtils();
    }

    @Override
    public Types getTypeUtils() {
      return env.getTypeUtils();
    }

    @Override
    public SourceVersion getSourceVersion() {
      return env.getSourceVersion();
    }

    @Override
    public Locale getLocale() {
      return env.getLocale();
    }

    @Override
    public boolean isPreviewEnabled() {
      return env.isPreviewEnabled();
    }
  }
}
