package dev.brace.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One test per rejection: the error carries its tag, names the culprit and sits on the line of the
 * attribute (or declaration) at fault.
 */
class NegativeTest {
  private static final String IMPORTS =
      "package p;\n"
          + "import dev.brace.*;\n"
          + "import java.io.IOException;\n"
          + "import java.util.List;\n"
          + "import java.util.concurrent.CompletableFuture;\n"
          + "import java.util.function.Predicate;\n";

  private static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(sources);
  }

  /** Compiles {@code p.Bad} (the imports above, then {@code body}) and expects one tagged error. */
  private static Compilation assertError(String body, String message, String line) {
    JavaFileObject file = JavaFileObjects.forSourceString("p.Bad", IMPORTS + body);
    Compilation compilation = compile(file);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLineContaining(line);
    return compilation;
  }

  @Test
  void countBelowOne() {
    assertError("public interface Bad {\n  @Retry(maxAttempts = 0)\n  String get();\n}",
        "[brace:invalid-value] @Retry on Bad.get: maxAttempts = 0 is not accepted", "maxAttempts = 0");
  }

  @Test
  void nanFactor() {
    assertError("public interface Bad {\n  @Retry(multiplier = Double.NaN)\n  String get();\n}",
        "[brace:invalid-value] @Retry on Bad.get: multiplier = NaN", "Double.NaN");
  }

  @Test
  void infiniteFactor() {
    assertError("public interface Bad {\n  @Retry(multiplier = 1.0 / 0.0)\n  String get();\n}",
        "multiplier = Infinity is not accepted", "1.0 / 0.0");
  }

  @Test
  void unparsableDuration() {
    assertError("public interface Bad {\n  @Retry(\n    delay = \"10 parsecs\")\n  String get();\n}",
        "[brace:invalid-value] @Retry on Bad.get: delay = \"10 parsecs\" is not accepted; expected a decimal number and a unit",
        "parsecs");
  }

  @Test
  void maxDelayBelowDelayIsCheckedByTheRuntimeBuilder() {
    assertError("public interface Bad {\n  @Retry(delay = \"1s\",\n    maxDelay = \"10ms\")\n  String get();\n}",
        "maxDelay = \"10ms\" is not accepted; expected a duration of at least delay (1s)", "maxDelay");
  }

  @Test
  void maxDurationShorterThanOneDelayIsCheckedByTheRuntimeBuilder() {
    assertError("public interface Bad {\n  @Retry(delay = \"1s\",\n    maxDuration = \"500ms\")\n  String get();\n}",
        "[brace:invalid-value] @Retry on Bad.get: maxDuration = \"500ms\" is not accepted; expected a duration of at least"
            + " delay (1s), or \"\" for no limit",
        "maxDuration = ");
  }

  @Test
  void aTimeoutLongerThanTheRetrysMaxDuration() {
    assertError("public interface Bad {\n  @Retry(maxDuration = \"1s\")\n  @Timeout(\"2s\")\n  String get();\n}",
        "[brace:max-duration-below-timeout] @Retry(maxDuration = \"1s\") on Bad.get is shorter than its @Timeout(\"2s\"):"
            + " one attempt may use up the whole limit, and the retry would never retry; lengthen maxDuration or shorten"
            + " the timeout",
        "maxDuration = ");
  }

  @Test
  void aTimeoutAsLongAsMaxDurationFits() {
    JavaFileObject file = JavaFileObjects.forSourceString("p.Good", IMPORTS
        + "public interface Good {\n  @Retry(maxDuration = \"1s\") @Timeout(\"1000ms\")\n"
        + "  @RateLimit(permits = 5, maxWait = \"1s\") @Bulkhead(maxWait = \"PT1S\")\n  String get();\n}");
    assertThat(compile(file)).succeededWithoutWarnings();
  }

  @Test
  void aLimitersMaxWaitLongerThanTheRetrysMaxDuration() {
    assertError("@RateLimit(name = \"api\", permits = 5, maxWait = \"3s\")\npublic interface Bad {\n"
            + "  @Retry(delay = \"10ms\",\n    maxDuration = \"2s\")\n  String get();\n}",
        "[brace:max-duration-below-wait] @Retry(maxDuration = \"2s\") on Bad.get is shorter than its @RateLimit(maxWait = \"3s\"):"
            + " one attempt may wait longer than the whole retry may take; lengthen maxDuration or shorten maxWait",
        "maxDuration = ");
  }

  @Test
  void aBulkheadsMaxWaitLongerThanTheRetrysMaxDuration() {
    assertError("public interface Bad {\n  @Bulkhead(maxWait = \"1s\")\n  @Retry(maxDuration = \"500ms\", delay = \"100ms\")\n  String get();\n}",
        "[brace:max-duration-below-wait] @Retry(maxDuration = \"500ms\") on Bad.get is shorter than its @Bulkhead(maxWait = \"1s\")",
        "maxDuration = ");
  }

  @Test
  void aCountWindowThatCanNeverReachMinimumCalls() {
    assertError("public interface Bad {\n  @CircuitBreaker(failureRate = 0.5,\n    windowCalls = 10)\n  String get();\n}",
        "[brace:invalid-value] @CircuitBreaker on Bad.get: windowCalls = 10 is not accepted; expected at least minimumCalls (20)",
        "windowCalls = 10");
  }

  @Test
  void aCountWindowBelowMinimumCallsIsRefusedForSlowCallsInClassicModeToo() {
    assertError("public interface Bad {\n  @CircuitBreaker(slowCall = \"1s\",\n    windowCalls = 10)\n  String get();\n}",
        "[brace:invalid-value] @CircuitBreaker on Bad.get: windowCalls = 10 is not accepted; expected at least minimumCalls (20)",
        "windowCalls = 10");
  }

  @Test
  void slowCallMustBeADuration() {
    assertError("public interface Bad {\n  @CircuitBreaker(slowCall = \"slow\")\n  String get();\n}",
        "[brace:invalid-value] @CircuitBreaker on Bad.get: slowCall = \"slow\" is not accepted; expected a decimal number and a unit",
        "slowCall");
  }

  @Test
  void slowCallRateOutOfRange() {
    assertError("public interface Bad {\n  @CircuitBreaker(slowCall = \"1s\", slowCallRate = 0)\n  String get();\n}",
        "[brace:invalid-value] @CircuitBreaker on Bad.get: slowCallRate = 0.0 is not accepted; expected a number in (0, 1]",
        "slowCallRate");
  }

  @Test
  void staleIfErrorOnAVoidMethod() {
    assertError("public interface Bad {\n  @StaleIfError\n  void send(String message);\n}",
        "[brace:stale-void] @StaleIfError on Bad.send: the method returns void, so there is no result to remember",
        "@StaleIfError");
  }

  @Test
  void staleIfErrorKeyNamingNoParameter() {
    assertError("public interface Bad {\n  @StaleIfError(key = \"user:{user}\")\n  String get(String userId);\n}",
        "[brace:key-unknown-parameter] @StaleIfError(key = \"user:{user}\") on Bad.get: {user} names no parameter; the parameters are: userId",
        "key = ");
  }

  @Test
  void staleIfErrorFreshLongerThanMaxAge() {
    assertError("public interface Bad {\n  @StaleIfError(maxAge = \"1m\",\n    fresh = \"2m\")\n  String get(String id);\n}",
        "[brace:invalid-value] @StaleIfError on Bad.get: fresh = \"2m\" is not accepted; expected a duration of at most maxAge (1m)",
        "fresh = ");
  }

  @Test
  void staleIfErrorMaxAgeMustBePositive() {
    assertError("public interface Bad {\n  @StaleIfError(maxAge = \"0s\")\n  String get(String id);\n}",
        "[brace:invalid-value] @StaleIfError on Bad.get: maxAge = \"0s\" is not accepted; expected a duration greater than zero",
        "maxAge");
  }

  @Test
  void ratioOutOfRange() {
    assertError("@CircuitBreaker(failureRate = 1.5)\npublic interface Bad {\n  String get();\n}",
        "[brace:invalid-value] @CircuitBreaker on Bad: failureRate = 1.5", "failureRate = 1.5");
  }

  @Test
  void permitsBelowOne() {
    assertError("public interface Bad {\n  @RateLimit(permits = 0)\n  String get();\n}",
        "permits = 0 is not accepted; expected an integer ≥ 1", "permits = 0");
  }

  @Test
  void zeroTimeout() {
    assertError("public interface Bad {\n  @Timeout(\"0s\")\n  String get();\n}",
        "[brace:invalid-value] @Timeout on Bad.get: value = \"0s\" is not accepted; expected a duration greater than zero",
        "@Timeout");
  }

  @Test
  void minConcurrentAboveInitialConcurrent() {
    assertError("public interface Bad {\n  @Bulkhead(adaptive = Bulkhead.Adaptive.AIMD, minConcurrent = 5,\n    initialConcurrent = 3)\n  String get();\n}",
        "[brace:invalid-value] @Bulkhead on Bad.get: initialConcurrent = 3 is not accepted; expected 0 for maxConcurrent, or an integer from minConcurrent (5) to maxConcurrent (10)",
        "initialConcurrent = 3");
  }

  @Test
  void minConcurrentAboveMaxConcurrent() {
    assertError("public interface Bad {\n  @Bulkhead(maxConcurrent = 4, adaptive = Bulkhead.Adaptive.VEGAS,\n    minConcurrent = 8)\n  String get();\n}",
        "[brace:invalid-value] @Bulkhead on Bad.get: minConcurrent = 8 is not accepted; expected an integer from 1 to maxConcurrent (4)",
        "minConcurrent = 8");
  }

  @Test
  void sheddableShareAboveDefaultShare() {
    assertError("public interface Bad {\n  @Bulkhead(defaultShare = 0.3,\n    sheddableShare = 0.5)\n  String get();\n}",
        "[brace:invalid-value] @Bulkhead on Bad.get: sheddableShare = 0.5 is not accepted; expected a number in (0, defaultShare (0.3)]: SHEDDABLE calls are shed before DEFAULT ones, so their share of the limit cannot be the larger",
        "sheddableShare = 0.5");
  }

  @Test
  void shareOutsideZeroToOne() {
    assertError("public interface Bad {\n  @Bulkhead(sheddableShare = 0.0)\n  String get();\n}",
        "[brace:invalid-value] @Bulkhead on Bad.get: sheddableShare = 0.0 is not accepted; expected a number in (0, 1]",
        "sheddableShare");
  }

  @Test
  void adaptiveRateDecreaseOfOne() {
    assertError("public interface Bad {\n  @RateLimit(permits = 10, adaptive = true,\n    decrease = 1.0)\n  String get();\n}",
        "[brace:invalid-value] @RateLimit on Bad.get: decrease = 1.0 is not accepted; expected a number in (0, 1)",
        "decrease = 1.0");
  }

  @Test
  void adaptiveRateMinPermitsAbovePermits() {
    assertError("public interface Bad {\n  @RateLimit(permits = 10, adaptive = true,\n    minPermits = 11)\n  String get();\n}",
        "[brace:invalid-value] @RateLimit on Bad.get: minPermits = 11 is not accepted; expected 0 for a tenth of permits, or an integer from 1 to permits (10)",
        "minPermits = 11");
  }

  @Test
  void adaptiveRateWithAKey() {
    assertError("public interface Bad {\n  @RateLimit(permits = 10, key = \"{id}\",\n    adaptive = true)\n  String get(String id);\n}",
        "[brace:invalid-value] @RateLimit on Bad.get: adaptive = true is not accepted; expected false for a keyed limiter",
        "adaptive = true");
  }

  @Test
  void blankName() {
    assertError("public interface Bad {\n  @Bulkhead(name = \" \")\n  String get();\n}",
        "[brace:invalid-name] @Bulkhead on Bad.get: bulkhead name = \" \" is not accepted; a name must not be blank",
        "name = \" \"");
  }

  @Test
  void fallbackMissingListsTheCandidates() {
    assertError("public interface Bad {\n  @Fallback(method = \"nope\")\n  String get();\n"
            + "  default String other() { return \"\"; }\n  static String another() { return \"\"; }\n}",
        "[brace:fallback-missing] @Fallback(method = \"nope\") on Bad.get: Bad has no method named nope;"
            + " its default and static methods are: other, another",
        "method = \"nope\"");
  }

  @Test
  void fallbackAmbiguous() {
    assertError("public interface Bad {\n  @Fallback(method = \"fb\")\n  String get(String id);\n"
            + "  default String fb(String id) { return id; }\n"
            + "  default String fb(String id, Exception cause) { return id; }\n}",
        "[brace:fallback-ambiguous] @Fallback(method = \"fb\") on Bad.get: more than one method fits:"
            + " fb(java.lang.String), fb(java.lang.String, java.lang.Exception)",
        "method = \"fb\"");
  }

  @Test
  void fallbackWrongReturnType() {
    assertError("public interface Bad {\n  @Fallback(method = \"fb\")\n  String get();\n"
            + "  default Integer fb() { return 0; }\n}",
        "[brace:fallback-return-type] @Fallback(method = \"fb\") on Bad.get: fb() returns java.lang.Integer,"
            + " which is not java.lang.String or a subtype of it",
        "method = \"fb\"");
  }

  @Test
  void fallbackWrongParameters() {
    assertError("public interface Bad {\n  @Fallback(method = \"fb\")\n  String get(String id);\n"
            + "  default String fb(int id) { return \"\"; }\n}",
        "[brace:fallback-parameters] @Fallback(method = \"fb\") on Bad.get: no fb takes the parameters"
            + " (java.lang.String), optionally followed by a Throwable; candidates: fb(int)",
        "method = \"fb\"");
  }

  @Test
  void fallbackFailureParameterTooNarrowForOn() {
    assertError("public interface Bad {\n  @Fallback(method = \"fb\",\n    on = {IOException.class, IllegalStateException.class})\n"
            + "  String get() throws IOException;\n  default String fb(IOException cause) { return \"\"; }\n}",
        "[brace:fallback-failure-type] @Fallback(method = \"fb\") on Bad.get: the last parameter of"
            + " fb(java.io.IOException) is java.io.IOException, but @Fallback(on) includes java.lang.IllegalStateException",
        "on = {");
  }

  @Test
  void aFallbackMethodThatCarriesABraceAnnotation() {
    assertError("public interface Bad {\n  interface Defaults {\n    @Retry\n    default String cached(String id) { return id; }\n  }\n"
            + "  interface Api extends Defaults {\n    @Fallback(method = \"cached\")\n    String get(String id);\n  }\n}",
        "[brace:fallback-annotated] @Fallback(method = \"cached\") on Bad.Api.get: cached(java.lang.String) carries @Retry,"
            + " but a fallback method is called as written, outside every pattern",
        "method = \"cached\"");
  }

  @Test
  void fallbackNotDefaultOrStatic() {
    assertError("public interface Bad {\n  @Fallback(method = \"fb\")\n  String get();\n  String fb();\n}",
        "[brace:fallback-not-default] @Fallback(method = \"fb\") on Bad.get: fb() is neither default nor static",
        "method = \"fb\"");
  }

  @Test
  void keyWithUnbalancedBraces() {
    assertError("public interface Bad {\n  @RateLimit(permits = 1, key = \"user:{id\")\n  String get(String id);\n}",
        "[brace:key-malformed] @RateLimit(key = \"user:{id\") on Bad.get: '{' at position 5 is not closed",
        "key = ");
  }

  @Test
  void keyWithEmptyPart() {
    assertError("public interface Bad {\n  @CircuitBreaker(key = \"a{}b\")\n  String get(String id);\n}",
        "[brace:key-malformed] @CircuitBreaker(key = \"a{}b\") on Bad.get: {} at position 1 names nothing",
        "key = ");
  }

  @Test
  void aKeyOnAMethodWithoutParameters() {
    assertError("public interface Bad {\n  @RateLimit(permits = 1,\n    key = \"{user}\")\n  String get();\n}",
        "[brace:key-constant] @RateLimit(key = \"{user}\") on Bad.get: the method has no parameters, so every call would have"
            + " the same key; remove key, or give the method the parameter the key stands for",
        "key = ");
  }

  @Test
  void aKeyThatNamesNoParameter() {
    assertError("public interface Bad {\n  @CircuitBreaker(key = \"tenant-a\")\n  String get(String id, int page);\n}",
        "[brace:key-constant] @CircuitBreaker(key = \"tenant-a\") on Bad.get: the template names no parameter, so every call"
            + " would have the same key; name one as {parameter} (the parameters are: id, page), or remove key",
        "key = ");
  }

  @Test
  void keyNamingAnUnknownParameter() {
    assertError("public interface Bad {\n  @CircuitBreaker(key = \"{user}\")\n  String get(String id, int page);\n}",
        "[brace:key-unknown-parameter] @CircuitBreaker(key = \"{user}\") on Bad.get: {user} names no parameter;"
            + " the parameters are: id, page",
        "key = ");
  }

  @Test
  void keyNamingAnUnknownProperty() {
    assertError("public interface Bad {\n  record Request(String host) {}\n"
            + "  @CircuitBreaker(key = \"{request.port}\")\n  String get(Request request);\n}",
        "[brace:key-unknown-property] @CircuitBreaker(key = \"{request.port}\") on Bad.get: in {request.port},"
            + " p.Bad.Request has no accessible method port() or getPort()",
        "key = ");
  }

  @Test
  void resultPredicateOfTheWrongType() {
    assertError("public interface Bad {\n  class Empty implements Predicate<String> {\n"
            + "    public boolean test(String s) { return s.isEmpty(); }\n  }\n"
            + "  @Retry(onResult = Empty.class)\n  List<String> get();\n}",
        "[brace:on-result-type] @Retry(onResult = p.Bad.Empty) on Bad.get: the predicate tests java.lang.String,"
            + " which does not accept java.util.List<java.lang.String>",
        "onResult = Empty.class");
  }

  @Test
  void resultPredicateOnAVoidMethod() {
    assertError("public interface Bad {\n  class Any implements Predicate<Object> {\n"
            + "    public boolean test(Object o) { return true; }\n  }\n"
            + "  @CircuitBreaker(onResult = Any.class)\n  void run();\n}",
        "[brace:on-result-void] @CircuitBreaker(onResult = p.Bad.Any) on Bad.run: the method returns void",
        "onResult = Any.class");
  }

  @Test
  void resultPredicateWithoutANoArgumentConstructor() {
    assertError("public interface Bad {\n  class Limit implements Predicate<Integer> {\n"
            + "    Limit(int max) {}\n    public boolean test(Integer i) { return true; }\n  }\n"
            + "  @Retry(onResult = Limit.class)\n  int count();\n}",
        "[brace:on-result-constructor] @Retry(onResult = p.Bad.Limit) on Bad.count: the wrapper creates the"
            + " predicate with new Limit()",
        "onResult = Limit.class");
  }

  @Test
  void noHedgeAtAll() {
    assertError("public interface Bad {\n  @Hedge(maxHedges = 0)\n  String get();\n}",
        "[brace:invalid-value] @Hedge on Bad.get: maxHedges = 0 is not accepted; expected an integer from 1 to 10",
        "maxHedges = 0");
  }

  @Test
  void moreHedgesThanTen() {
    assertError("public interface Bad {\n  @Hedge(delay = \"10ms\",\n    maxHedges = 11)\n  CompletableFuture<String> get();\n}",
        "[brace:invalid-value] @Hedge on Bad.get: maxHedges = 11 is not accepted; expected an integer from 1 to 10",
        "maxHedges = 11");
  }

  @Test
  void unparsableHedgeDelay() {
    assertError("public interface Bad {\n  @Hedge(\n    delay = \"soon\")\n  String get();\n}",
        "[brace:invalid-value] @Hedge on Bad.get: delay = \"soon\" is not accepted; expected a decimal number and a unit",
        "soon");
  }

  @Test
  void hedgeBudgetNameWithASpace() {
    assertError("@Hedge(budget = \"search api\")\npublic interface Bad {\n  String get();\n}",
        "[brace:invalid-value] @Hedge on Bad: budget = \"search api\" is not accepted; expected a retry budget's"
            + " name (letters, digits, . _ - and :), or \"\" for none",
        "search api");
  }

  @Test
  void retryBudgetNameWithABracket() {
    assertError("public interface Bad {\n  @Retry(budget = \"api[1]\")\n  String get();\n}",
        "[brace:invalid-value] @Retry on Bad.get: budget = \"api[1]\" is not accepted; expected a retry budget's name",
        "api[1]");
  }

  @Test
  void overloadsWithDifferentHedgesUnderOneCallName() {
    assertError("public interface Bad {\n  @Hedge(delay = \"50ms\")\n  String get(String id);\n"
            + "  @Hedge(delay = \"80ms\")\n  String get(int id);\n}",
        "[brace:overload-conflict] @Hedge on Bad.get: the overloads of get share the call name \"Bad.get\""
            + " but give it different settings; give each overload its own @Hedge(name = \"...\")",
        "delay = \"80ms\"");
  }

  @Test
  void overloadsWithDifferentSettingsUnderOneCallName() {
    assertError("public interface Bad {\n  @Retry(maxAttempts = 2)\n  String get(String id);\n"
            + "  @Retry(maxAttempts = 4)\n  String get(int id);\n}",
        "[brace:overload-conflict] @Retry on Bad.get: the overloads of get share the call name \"Bad.get\""
            + " but give it different settings; give each overload its own @Retry(name = \"...\")",
        "maxAttempts = 4");
  }

  @Test
  void oneSystemScopedNameWithDifferentSettings() {
    assertError("public interface Bad {\n  @Bulkhead(name = \"db\", maxConcurrent = 2)\n  String get();\n"
            + "  @Bulkhead(name = \"db\", maxConcurrent = 3)\n  String put();\n}",
        "[brace:name-conflict] @Bulkhead on Bad.put: the bulkhead \"db\" is already configured differently on Bad.get",
        "maxConcurrent = 3");
  }

  @Test
  void twoSitesThatWriteTheDefaultDifferentlyDoNotConflict() {
    JavaFileObject file = JavaFileObjects.forSourceString("p.Good", IMPORTS
        + "public interface Good {\n"
        + "  @CircuitBreaker(name = \"api\") String a();\n"
        + "  @CircuitBreaker(name = \"api\", failureThreshold = 5, resetTimeout = \"30s\") String b();\n}");
    assertThat(compile(file)).succeeded();
  }

  /**
   * An isolating processor sees one interface per generated file: Gradle recompiles only the
   * interfaces that changed, so a comparison with another interface would pass or fail with what
   * was recompiled. Two interfaces that give one name different settings compile; the registry
   * refuses the second wrapper (integration-tests: CreationChecksTest).
   */
  @Test
  void oneSystemScopedNameWithDifferentSettingsInTwoInterfacesIsLeftToTheRegistry() {
    JavaFileObject first = JavaFileObjects.forSourceString("p.First",
        "package p;\n@dev.brace.CircuitBreaker(name = \"db\")\npublic interface First {\n  String get();\n}");
    JavaFileObject second = JavaFileObjects.forSourceString("p.Second",
        "package p;\n@dev.brace.CircuitBreaker(name = \"db\", failureThreshold = 9)\npublic interface Second {\n  String get();\n}");
    assertThat(compile(first, second)).succeededWithoutWarnings();
  }

  @Test
  void oneSystemScopedNameWithDifferentSettingsInAnInterfaceAndOneItInherits() {
    assertError("public interface Bad {\n  interface Base {\n    @Bulkhead(name = \"db\", maxConcurrent = 2)\n    String get();\n  }\n"
            + "  interface Api extends Base {\n    @Bulkhead(name = \"db\",\n      maxConcurrent = 3)\n    String put();\n  }\n}",
        "[brace:name-conflict] @Bulkhead on Bad.Base.get: the bulkhead \"db\" is already configured differently on Bad.Api.put",
        "maxConcurrent = 2");
  }

  @Test
  void annotationOnAClass() {
    assertError("@Retry\npublic class Bad {\n}",
        "[brace:not-an-interface] @Retry belongs on an interface or on an abstract method of one, not on class Bad",
        "@Retry");
  }

  @Test
  void annotationOnAMethodOfAClass() {
    assertError("public class Bad {\n  @Timeout(\"1s\")\n  public void run() {}\n}",
        "[brace:not-an-interface] @Timeout belongs on an interface or on an abstract method of one, not on method Bad.run",
        "@Timeout");
  }

  @Test
  void annotationOnAnEnum() {
    assertError("@Bulkhead\npublic enum Bad { A }", "not on enum Bad", "@Bulkhead");
  }

  @Test
  void annotationOnARecord() {
    assertError("@Bulkhead\npublic record Bad(int a) {}", "not on record Bad", "@Bulkhead");
  }

  @Test
  void annotationOnAnAnnotationType() {
    assertError("@Bulkhead\npublic @interface Bad {}", "not on annotation type Bad", "@Bulkhead");
  }

  @Test
  void annotationOnADefaultMethod() {
    assertError("public interface Bad {\n  @Retry\n  default String get() { return \"\"; }\n}",
        "[brace:not-abstract] @Retry on Bad.get: only abstract interface methods are wrapped", "@Retry");
  }

  @Test
  void annotationOnAStaticMethod() {
    assertError("public interface Bad {\n  String get();\n  @Retry\n  static String make() { return \"\"; }\n}",
        "[brace:not-abstract] @Retry on Bad.make", "@Retry");
  }

  @Test
  void asynchronousMethodWithAWildcardValue() {
    assertError("public interface Bad {\n  @Retry\n  CompletableFuture<?> get();\n}",
        "[brace:async-unsupported] Bad.get returns java.util.concurrent.CompletableFuture<?>", "CompletableFuture<?> get");
  }

  @Test
  void privateInterface() {
    assertError("public class Bad {\n  @Retry\n  private interface Hidden {\n    String get();\n  }\n}",
        "[brace:inaccessible-interface] Bad.Hidden is private or local", "private interface Hidden");
  }

  @Test
  void anErrorSkipsOnlyTheInterfaceAtFault() {
    JavaFileObject bad = JavaFileObjects.forSourceString("p.Bad",
        IMPORTS + "public interface Bad {\n  @Retry(maxAttempts = 0)\n  String get();\n}");
    JavaFileObject good = JavaFileObjects.forSourceString("p.Good",
        IMPORTS + "public interface Good {\n  @Retry\n  String get();\n}");
    JavaFileObject user = JavaFileObjects.forSourceString("p.User",
        "package p;\nclass User {\n  Good good = ResilientGood.wrap(null);\n}");
    Compilation compilation = compile(bad, good, user);
    assertThat(compilation).hadErrorCount(1); // no "cannot find symbol ResilientGood"
  }
}
