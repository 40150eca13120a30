package dev.brace.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/** The per-interface manifest the registry reads to catch configuration typos. */
class ManifestTest {

  @Test
  void listsEveryInstanceTheWrapperUsesByKind() throws IOException {
    Compilation compilation = GoldenTest.compile(GoldenTest.good("RecsClient"));
    assertThat(compilation).succeededWithoutWarnings();

    String manifest = compilation
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/brace/instances/p.RecsClient")
        .orElseThrow()
        .getCharContent(true)
        .toString();

    assertThat(manifest).contains("\nbulkhead recs-api\n");
    assertThat(manifest).contains("\ncircuitbreaker recs-api\n");
    assertThat(manifest).contains("\nfallback RecsClient.recommendations\n");
    assertThat(manifest).contains("\nratelimit recs-api\n");
    assertThat(manifest).contains("\nretry RecsClient.recommendations\n");
    assertThat(manifest).contains("\ntimeout RecsClient.recommendations\n");
    // Fault injection may name the call itself.
    assertThat(manifest).contains("\nchaos RecsClient.recommendations\n");
  }

  @Test
  void namesTheRetryBudget() throws IOException {
    Compilation compilation = GoldenTest.compile(JavaFileObjects.forSourceString("p.Budgeted", String.join("\n",
        "package p;",
        "import dev.brace.Retry;",
        "public interface Budgeted {",
        "  @Retry(budget = \"shared-budget\") String call();",
        "}")));
    assertThat(compilation).succeededWithoutWarnings();

    String manifest = compilation
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/brace/instances/p.Budgeted")
        .orElseThrow()
        .getCharContent(true)
        .toString();

    assertThat(manifest).contains("\nretrybudget shared-budget\n");
  }

  @Test
  void namesTheHedgeAndTheBudgetItDrawsOn() throws IOException {
    Compilation compilation = GoldenTest.compile(JavaFileObjects.forSourceString("p.Hedging", String.join("\n",
        "package p;",
        "import dev.brace.Hedge;",
        "public interface Hedging {",
        "  @Hedge(budget = \"hedges\") String call();",
        "}")));
    assertThat(compilation).succeededWithoutWarnings();

    String manifest = compilation
        .generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/brace/instances/p.Hedging")
        .orElseThrow()
        .getCharContent(true)
        .toString();

    assertThat(manifest).contains("\nhedge Hedging.call\n");
    assertThat(manifest).contains("\nretrybudget hedges\n");
  }

  /** What a native image needs for Brace.wrap to find the wrapper, written beside it. */
  @Test
  void theWrapperIsRegisteredForANativeImageOnceItsInterfaceIsReached() throws IOException {
    Compilation compilation = GoldenTest.compile(GoldenTest.good("Outer"));
    assertThat(compilation).succeededWithoutWarnings();

    String metadata = compilation
        .generatedFile(StandardLocation.CLASS_OUTPUT,
            "META-INF/native-image/dev.brace.generated/p.Outer$Inner/reachability-metadata.json")
        .orElseThrow()
        .getCharContent(true)
        .toString();

    assertThat(metadata).contains("\"condition\": {\"typeReached\": \"p.Outer$Inner\"}");
    assertThat(metadata).contains("\"type\": \"p.ResilientOuter_Inner\"");
    assertThat(metadata).contains(
        "\"methods\": [{\"name\": \"wrap\", \"parameterTypes\": [\"p.Outer$Inner\", \"dev.brace.runtime.Registry\"]}]");
  }
}
