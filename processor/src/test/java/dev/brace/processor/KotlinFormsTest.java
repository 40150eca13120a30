package dev.brace.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Kotlin's {@code suspend} functions and {@code Flow} methods as kapt hands them to the processor,
 * with brace-kotlin on the class path (its entry class, {@code dev.brace.kotlin.CoroutineCalls}, as
 * a stub of the signatures generated code calls): wrapped, and refused where a {@code Flow} cannot
 * have a pattern or a fallback has the wrong shape.
 */
class KotlinFormsTest {
  private static final List<JavaFileObject> KOTLIN = List.of(
      JavaFileObjects.forResource("stubs/dev/brace/kotlin/CoroutineCalls.java"),
      JavaFileObjects.forResource("stubs/dev/brace/kotlin/SuspendInvocation.java"),
      JavaFileObjects.forResource("stubs/kotlin/coroutines/Continuation.java"),
      JavaFileObjects.forResource("stubs/kotlin/Unit.java"),
      JavaFileObjects.forResource("stubs/kotlinx/coroutines/flow/Flow.java"));

  private static Compilation compile(JavaFileObject client) {
    List<JavaFileObject> sources = new ArrayList<>(KOTLIN);
    sources.add(client);
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(sources);
  }

  private static JavaFileObject kotlinInterface(String body) {
    return JavaFileObjects.forSourceString("p.Items", "package p;\nimport dev.brace.*;\nimport kotlin.coroutines.Continuation;\n"
        + "import kotlinx.coroutines.flow.Flow;\n" + body);
  }

  @Test
  void suspendFunctionsAndFlowsAreWrappedWithTheContinuationOutOfTheArgumentsAndKeys() throws IOException {
    Compilation compilation = compile(GoldenTest.good("Suspending"));
    assertThat(compilation).succeededWithoutWarnings();
    GoldenTest.assertGolden(compilation, "ResilientSuspending");
  }

  @Test
  void aFlowTakesNeitherAHedgeNorStaleAnswersNorAResultPredicate() {
    JavaFileObject client = kotlinInterface("public interface Items {\n"
        + "  @Hedge(delay = \"10ms\")\n  Flow<String> hedged();\n"
        + "  @StaleIfError\n  Flow<String> stale();\n"
        + "  @Retry(onResult = Empty.class)\n  Flow<String> tested();\n"
        + "  final class Empty implements java.util.function.Predicate<String> {\n"
        + "    public boolean test(String value) { return value.isEmpty(); }\n  }\n}");
    Compilation compilation = compile(client);
    assertThat(compilation).hadErrorContaining("[brace:flow-pattern-unsupported] @Hedge on Items.hedged: a method returning"
        + " Flow cannot have it, since a hedge answers with the first whole answer of several attempts, and the elements"
        + " of two streams cannot be taken back once emitted; remove it, or make it a suspend function returning List<T>"
        + " to treat the whole stream as one answer");
    assertThat(compilation).hadErrorContaining("[brace:flow-pattern-unsupported] @StaleIfError on Items.stale");
    assertThat(compilation).hadErrorContaining("[brace:flow-pattern-unsupported] @Retry(onResult) on Items.tested");
    assertThat(compilation).hadErrorCount(3);
  }

  @Test
  void aSuspendFallbackCannotAnswerAFlow() {
    JavaFileObject client = kotlinInterface("public interface Items {\n"
        + "  @Fallback(method = \"noItems\")\n  Flow<String> items();\n"
        + "  default Object noItems(Continuation<? super Flow<String>> $completion) { return null; }\n}");
    Compilation compilation = compile(client);
    assertThat(compilation).hadErrorContaining("[brace:fallback-suspend-for-flow] @Fallback(method = \"noItems\") on"
        + " Items.items: noItems(kotlin.coroutines.Continuation<? super kotlinx.coroutines.flow.Flow<java.lang.String>>)"
        + " is a suspend function, but a Flow is answered by another flow, collected in its place; make the fallback a"
        + " plain function returning kotlinx.coroutines.flow.Flow<java.lang.String>");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aFallbackMustAnswerWithTheSuspendFunctionsValue() {
    JavaFileObject client = kotlinInterface("public interface Items {\n"
        + "  @Fallback(method = \"noItem\")\n  Object item(String id, Continuation<? super String> $completion);\n"
        + "  default Object noItem(String id, Continuation<? super Integer> $completion) { return null; }\n"
        + "  @Fallback(method = \"nothing\")\n  Object count(String id, Continuation<? super Integer> $completion);\n"
        + "  default void nothing(String id) {}\n}");
    Compilation compilation = compile(client);
    assertThat(compilation).hadErrorContaining("[brace:fallback-return-type] @Fallback(method = \"noItem\") on Items.item:"
        + " noItem(java.lang.String, kotlin.coroutines.Continuation<? super java.lang.Integer>) returns java.lang.Integer,"
        + " which is not java.lang.String or a subtype of it");
    assertThat(compilation).hadErrorContaining("[brace:fallback-return-type] @Fallback(method = \"nothing\") on Items.count:"
        + " nothing(java.lang.String) returns void, which is not java.lang.Integer, or a suspend function returning it or a"
        + " subtype of it");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aSuspendFallbackDoesNotAnswerAPlainMethod() {
    JavaFileObject client = kotlinInterface("public interface Items {\n"
        + "  @Fallback(method = \"noName\")\n  String name(String id);\n"
        + "  default Object noName(String id, Continuation<? super String> $completion) { return null; }\n}");
    Compilation compilation = compile(client);
    assertThat(compilation).hadErrorContaining("[brace:fallback-parameters] @Fallback(method = \"noName\") on Items.name");
    assertThat(compilation).hadErrorCount(1);
  }
}
