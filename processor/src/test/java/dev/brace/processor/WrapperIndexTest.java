package dev.brace.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * The index {@code Brace.wrap} reads: a {@code WrapperFactory} beside each wrapper, and one service
 * file listing them all.
 */
class WrapperIndexTest {
  private static final String SERVICE_FILE = "META-INF/services/dev.brace.runtime.support.WrapperFactory";

  private static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BraceProcessor(), new WrapperIndexProcessor()).compile(sources);
  }

  @Test
  void theServiceFileListsTheFactoryOfEveryWrapperOfTheCompilation() throws IOException {
    Compilation compilation = compile(GoldenTest.good("Outer"), GoldenTest.good("Repo"));
    assertThat(compilation).succeededWithoutWarnings();

    String index = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, SERVICE_FILE).orElseThrow()
        .getCharContent(true).toString();

    assertThat(index).isEqualTo("# Written by brace-processor: the wrappers of this module, which Brace.wrap finds here.\n"
        + "p.ResilientOuter_Api_Deep_WrapperFactory\n"
        + "p.ResilientOuter_Inner_WrapperFactory\n"
        + "p.ResilientRepo_WrapperFactory\n");
  }

  /** Public, as ServiceLoader requires, though the interface is not; a generic one is cast by capture. */
  @Test
  void aFactoryWrapsThroughTheWrappersOwnWrap() throws IOException {
    Compilation compilation = compile(GoldenTest.good("Outer"), GoldenTest.good("Repo"));
    assertThat(compilation).succeededWithoutWarnings();

    assertGolden(compilation, "ResilientRepo_WrapperFactory");
    assertGolden(compilation, "ResilientOuter_Inner_WrapperFactory");
  }

  @Test
  void aCompilationWithoutWrappersWritesNoIndex() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("p.Plain", "package p; public interface Plain { String call(); }"));
    assertThat(compilation).succeededWithoutWarnings();

    assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, SERVICE_FILE).isPresent()).isFalse();
  }

  private static void assertGolden(Compilation compilation, String factory) throws IOException {
    String generated = compilation.generatedSourceFile("p." + factory).orElseThrow().getCharContent(true).toString();
    if (WrapperIndexTest.class.getResource("/expected/" + factory + ".java") == null) {
      Path draft = Path.of("target", "golden-drafts", factory + ".java");
      Files.createDirectories(draft.getParent());
      Files.writeString(draft, generated);
      throw new AssertionError("no expected/" + factory + ".java; review " + draft.toAbsolutePath());
    }
    assertThat(generated).isEqualTo(GoldenTest.expected(factory).getCharContent(true).toString());
  }
}
