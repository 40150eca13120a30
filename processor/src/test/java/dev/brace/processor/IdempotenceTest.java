package dev.brace.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @NotIdempotent}: a retry is accepted only on failures that prove the request never left,
 * on a call marked on its method, its interface or the interface that inherits it.
 */
class IdempotenceTest {
  private static final String IMPORTS =
      "package p;\n"
          + "import dev.brace.*;\n"
          + "import dev.brace.runtime.*;\n"
          + "import java.io.IOException;\n"
          + "import java.net.*;\n"
          + "import java.util.function.Predicate;\n";

  private static final String NEVER_SENT = "(dev.brace.runtime.CircuitOpenException, dev.brace.runtime.RateLimitedException,"
      + " dev.brace.runtime.BulkheadFullException, java.net.ConnectException, java.net.UnknownHostException,"
      + " java.net.NoRouteToHostException, or a subtype of one)";

  private static Compilation compile(String body) {
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(JavaFileObjects.forSourceString("p.Calls", IMPORTS + body));
  }

  private static void assertError(String body, String message, String line) {
    JavaFileObject file = JavaFileObjects.forSourceString("p.Calls", IMPORTS + body);
    Compilation compilation = Compiler.javac().withProcessors(new BraceProcessor()).compile(file);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLineContaining(line);
  }

  @Test
  void aRetryOnAFailureThatMayHaveBeenActedOnIsAnError() {
    assertError("public interface Calls {\n  @NotIdempotent\n  @Retry(maxAttempts = 2,\n    on = {ConnectException.class, IOException.class})\n"
            + "  String charge(String id) throws IOException;\n}",
        "[brace:not-idempotent-retry] @Retry on Calls.charge: the call is @NotIdempotent, so it may be retried only on"
            + " failures that prove the request was never sent " + NEVER_SENT + ", never on a result; but on includes"
            + " java.io.IOException",
        "on = {");
  }

  @Test
  void theDefaultOnIsEveryExceptionSoARetryLeftAtItIsAnError() {
    assertError("@NotIdempotent\npublic interface Calls {\n  @Retry\n  String charge(String id);\n}",
        "but on (by default) includes java.lang.Exception", "@Retry");
  }

  @Test
  void aRetryThatTestsResultsIsAnError() {
    assertError("public interface Calls {\n  class Empty implements Predicate<String> {\n"
            + "    public boolean test(String s) { return s.isEmpty(); }\n  }\n"
            + "  @NotIdempotent\n  @Retry(on = ConnectException.class,\n    onResult = Empty.class)\n  String charge(String id);\n}",
        "[brace:not-idempotent-retry] @Retry on Calls.charge: the call is @NotIdempotent, so it may be retried only on"
            + " failures that prove the request was never sent " + NEVER_SENT + ", never on a result; but onResult ="
            + " p.Calls.Empty.class retries a result, which the dependency did send",
        "onResult = Empty.class");
  }

  @Test
  void anInterfaceMarkedNotIdempotentMarksTheMethodsItInherits() {
    assertError("public interface Calls {\n  interface Base {\n    @Retry(on = IOException.class)\n    String charge(String id) throws IOException;\n  }\n"
            + "  @NotIdempotent\n  interface Payments extends Base {}\n}",
        "[brace:not-idempotent-retry] @Retry on Calls.Base.charge", "@Retry(on = IOException.class)");
  }

  @Test
  void anInterfaceInTheMiddleMarksWhatPassesThroughIt() {
    assertError("public interface Calls {\n  interface Base {\n    @Retry(on = IOException.class)\n    String charge(String id) throws IOException;\n  }\n"
            + "  @NotIdempotent\n  interface Middle extends Base {}\n  interface Api extends Middle {}\n}",
        "[brace:not-idempotent-retry] @Retry on Calls.Base.charge", "@Retry(on = IOException.class)");
  }

  @Test
  void theMarkOnAClassIsMisplaced() {
    assertError("@NotIdempotent\npublic class Calls {\n}",
        "[brace:not-an-interface] @NotIdempotent belongs on an interface or on an abstract method of one, not on class Calls",
        "@NotIdempotent");
  }

  @Test
  void theMarkOnADefaultMethodDoesNothingSoItIsAnError() {
    assertError("public interface Calls {\n  @Retry(on = ConnectException.class) String charge(String id);\n"
            + "  @NotIdempotent\n  default String chargeTwice(String id) { return charge(id) + charge(id); }\n}",
        "[brace:not-abstract] @NotIdempotent on Calls.chargeTwice: only abstract interface methods are wrapped",
        "default String chargeTwice");
  }

  @Test
  void neverSentFailuresTheirSubtypesAndOtherPatternsCompile() {
    Compilation compilation = compile("@NotIdempotent\n@CircuitBreaker(name = \"pay\")\npublic interface Calls {\n"
        + "  class ProxyRefused extends ConnectException {\n    ProxyRefused() { super(\"refused\"); }\n  }\n"
        + "  @Retry(on = {ProxyRefused.class, UnknownHostException.class, NoRouteToHostException.class,\n"
        + "      CircuitOpenException.class, RateLimitedException.class, BulkheadFullException.class})\n"
        + "  @Bulkhead(name = \"pay\") @Timeout(\"1s\") @Fallback(method = \"declined\")\n"
        + "  String charge(String id);\n"
        + "  default String declined(String id) { return \"declined\"; }\n"
        + "  @Timeout(\"1s\") String refund(String id);\n}");
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void aRetryOnAMethodNotMarkedIsUnaffected() {
    assertThat(compile("public interface Calls {\n  @NotIdempotent @Timeout(\"1s\") String charge(String id);\n"
        + "  @Retry String quote(String id);\n}")).succeededWithoutWarnings();
  }
}
