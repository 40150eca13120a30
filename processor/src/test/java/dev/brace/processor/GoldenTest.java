package dev.brace.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Golden tests: an interface under {@code good/} generates exactly the source under {@code
 * expected/}, byte for byte, which compiles against the runtime without a warning.
 */
class GoldenTest {

  static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(sources);
  }

  static JavaFileObject good(String name) {
    return JavaFileObjects.forResource("good/" + name + ".java");
  }

  static JavaFileObject expected(String name) {
    return JavaFileObjects.forResource("expected/" + name + ".java");
  }

  private static void assertGenerates(String input, String wrapper) throws IOException {
    Compilation compilation = compile(good(input));
    assertThat(compilation).succeededWithoutWarnings();
    assertGolden(compilation, wrapper);
  }

  static void assertGolden(Compilation compilation, String wrapper) throws IOException {
    if (GoldenTest.class.getResource("/expected/" + wrapper + ".java") == null) {
      // A new golden: write what was generated for review, and fail until it is checked in.
      Path draft = Path.of("target", "golden-drafts", wrapper + ".java");
      Files.createDirectories(draft.getParent());
      Files.writeString(draft, compilation.generatedSourceFile("p." + wrapper).orElseThrow().getCharContent(true));
      throw new AssertionError("no expected/" + wrapper + ".java; review " + draft.toAbsolutePath());
    }
    assertThat(compilation).generatedSourceFile("p." + wrapper).hasSourceEquivalentTo(expected(wrapper));
    // The text too, to the byte: a change of the writer that changes no shape must change no golden.
    assertThat(compilation).generatedSourceFile("p." + wrapper).contentsAsUtf8String()
        .isEqualTo(expected(wrapper).getCharContent(true).toString());
  }

  @Test
  void allSixPatternsOnOneMethodWithTypeLevelBreaker() throws IOException {
    assertGenerates("RecsClient", "ResilientRecsClient");
  }

  @Test
  void hedgedSyncMethodsHandTheDelegateCallToTheHedgeAndAsyncOnesAsAlways() throws IOException {
    assertGenerates("Hedged", "ResilientHedged");
  }

  @Test
  void staleIfErrorHandsItsCallOverWithTheStaleKeyInItsCallKeys() throws IOException {
    assertGenerates("Stale", "ResilientStale");
  }

  @Test
  void methodLevelAnnotationReplacesTypeLevelOfItsKind() throws IOException {
    assertGenerates("Catalog", "ResilientCatalog");
  }

  @Test
  void genericInterfaceWithBoundsVarargsArraysPrimitivesVoidCheckedExceptionsAndOverloads()
      throws IOException {
    assertGenerates("Repo", "ResilientRepo");
  }

  @Test
  void nestedInterfacesAreNamedByTheirChainAndKeepTheirVisibility() throws IOException {
    assertGenerates("Outer", "ResilientOuter_Inner");
    assertGenerates("Outer", "ResilientOuter_Api_Deep");
  }

  @Test
  void inheritedMethodsKeepTheAnnotationsOfTheirDeclaringInterface() throws IOException {
    assertGenerates("Derived", "ResilientDerived");
    assertGenerates("Derived", "ResilientBase");
  }

  @Test
  void parameterNamesNeverClashWithTheDriversLocals() throws IOException {
    Compilation compilation = compile(good("Clash"), good("NotNull"));
    assertThat(compilation).succeededWithoutWarnings();
    assertGolden(compilation, "ResilientClash");
  }

  @Test
  void aClassNamedLikeAMemberTypeTheWrapperInheritsIsWrittenQualified() throws IOException {
    assertGenerates("Shadowing", "ResilientShadowing");
  }

  @Test
  void keyTemplatesBecomeNullSafeAccessorChains() throws IOException {
    assertGenerates("Keyed", "ResilientKeyed");
  }

  @Test
  void aCallMarkedNotIdempotentSaysSoInItsDefinition() throws IOException {
    assertGenerates("Payments", "ResilientPayments");
  }

  @Test
  void adaptiveLimitsAndCriticalityAreWrittenAsTheSiteWroteThem() throws IOException {
    assertGenerates("Shedding", "ResilientShedding");
  }

  @Test
  void asynchronousMethodsRunThroughTheAsyncDriver() throws IOException {
    assertGenerates("Reports", "ResilientReports");
  }

  @Test
  void monoAndFluxMethodsHandTheirCallToBraceReactorAndAValueFallbackIsWrapped() throws IOException {
    Compilation compilation = compile(good("Items"), JavaFileObjects.forResource("stubs/dev/brace/reactor/ReactorCalls.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertGolden(compilation, "ResilientItems");
  }
}
