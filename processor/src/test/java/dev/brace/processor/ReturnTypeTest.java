package dev.brace.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What an annotated method may return: a deferred type whose request runs after the method
 * returned, outside the wrapper, is a compile error; Reactor's {@code Mono}/{@code Flux} need
 * {@code brace-reactor}, and a {@code Flux} takes neither a hedge nor stale answers. The
 * libraries are stubs, as small as the checks need (they are recognised by name); {@code
 * dev.brace.reactor.ReactorCalls} stands for brace-reactor on the class path.
 */
class ReturnTypeTest {
  private static final JavaFileObject PUBLISHER = stub("org.reactivestreams.Publisher",
      "package org.reactivestreams;\npublic interface Publisher<T> {}");
  private static final JavaFileObject MONO = stub("reactor.core.publisher.Mono",
      "package reactor.core.publisher;\npublic abstract class Mono<T> implements org.reactivestreams.Publisher<T> {}");
  private static final JavaFileObject FLUX = stub("reactor.core.publisher.Flux",
      "package reactor.core.publisher;\npublic abstract class Flux<T> implements org.reactivestreams.Publisher<T> {}");
  /** brace-reactor's entry class with the signatures generated code calls. */
  private static final JavaFileObject BRACE_REACTOR = JavaFileObjects.forResource("stubs/dev/brace/reactor/ReactorCalls.java");

  private static final List<JavaFileObject> LIBRARIES = List.of(
      PUBLISHER, MONO, FLUX,
      stub("retrofit2.Call", "package retrofit2;\npublic interface Call<T> extends Cloneable {}"),
      stub("com.google.common.util.concurrent.ListenableFuture",
          "package com.google.common.util.concurrent;\n"
              + "public interface ListenableFuture<V> extends java.util.concurrent.Future<V> {}"),
      stub("io.vertx.core.Future", "package io.vertx.core;\npublic interface Future<T> {}"),
      stub("io.reactivex.Single", "package io.reactivex;\npublic abstract class Single<T> {}"),
      stub("io.reactivex.Maybe", "package io.reactivex;\npublic abstract class Maybe<T> {}"),
      stub("io.reactivex.Completable", "package io.reactivex;\npublic abstract class Completable {}"),
      stub("io.reactivex.Observable", "package io.reactivex;\npublic abstract class Observable<T> {}"),
      stub("io.reactivex.Flowable",
          "package io.reactivex;\npublic abstract class Flowable<T> implements org.reactivestreams.Publisher<T> {}"),
      stub("io.reactivex.rxjava3.core.Single", "package io.reactivex.rxjava3.core;\npublic abstract class Single<T> {}"),
      stub("io.reactivex.rxjava3.core.Maybe", "package io.reactivex.rxjava3.core;\npublic abstract class Maybe<T> {}"),
      stub("io.reactivex.rxjava3.core.Completable", "package io.reactivex.rxjava3.core;\npublic abstract class Completable {}"),
      stub("io.reactivex.rxjava3.core.Observable", "package io.reactivex.rxjava3.core;\npublic abstract class Observable<T> {}"),
      stub("io.reactivex.rxjava3.core.Flowable",
          "package io.reactivex.rxjava3.core;\npublic abstract class Flowable<T> implements org.reactivestreams.Publisher<T> {}"),
      stub("io.smallrye.mutiny.Uni", "package io.smallrye.mutiny;\npublic interface Uni<T> {}"),
      stub("io.smallrye.mutiny.Multi",
          "package io.smallrye.mutiny;\npublic interface Multi<T> extends java.util.concurrent.Flow.Publisher<T> {}"),
      stub("kotlinx.coroutines.Deferred", "package kotlinx.coroutines;\npublic interface Deferred<T> {}"));

  private static JavaFileObject stub(String name, String source) {
    return JavaFileObjects.forSourceString(name, source);
  }

  private static Compilation compile(JavaFileObject bad, boolean withBraceReactor) {
    List<JavaFileObject> sources = new ArrayList<>(LIBRARIES);
    if (withBraceReactor) {
      sources.add(BRACE_REACTOR);
    }
    sources.add(bad);
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(sources);
  }

  private static JavaFileObject source(String body) {
    return JavaFileObjects.forSourceString("p.Client", "package p;\nimport dev.brace.*;\n" + body);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "retrofit2.Call<String>                                   | retrofit2.Call<java.lang.String>",
      "java.util.concurrent.Future<String>                      | java.util.concurrent.Future<java.lang.String>",
      "java.util.concurrent.FutureTask<String>                  | java.util.concurrent.FutureTask<java.lang.String>, a java.util.concurrent.Future",
      "com.google.common.util.concurrent.ListenableFuture<String> | com.google.common.util.concurrent.ListenableFuture<java.lang.String>",
      "io.vertx.core.Future<String>                             | io.vertx.core.Future<java.lang.String>",
      "io.reactivex.Single<String>                              | io.reactivex.Single<java.lang.String>",
      "io.reactivex.Maybe<String>                               | io.reactivex.Maybe<java.lang.String>",
      "io.reactivex.Completable                                 | io.reactivex.Completable",
      "io.reactivex.Observable<String>                          | io.reactivex.Observable<java.lang.String>",
      "io.reactivex.Flowable<String>                            | io.reactivex.Flowable<java.lang.String>",
      "io.reactivex.rxjava3.core.Single<String>                 | io.reactivex.rxjava3.core.Single<java.lang.String>",
      "io.reactivex.rxjava3.core.Maybe<String>                  | io.reactivex.rxjava3.core.Maybe<java.lang.String>",
      "io.reactivex.rxjava3.core.Completable                    | io.reactivex.rxjava3.core.Completable",
      "io.reactivex.rxjava3.core.Observable<String>             | io.reactivex.rxjava3.core.Observable<java.lang.String>",
      "io.reactivex.rxjava3.core.Flowable<String>               | io.reactivex.rxjava3.core.Flowable<java.lang.String>",
      "io.smallrye.mutiny.Uni<String>                           | io.smallrye.mutiny.Uni<java.lang.String>",
      "io.smallrye.mutiny.Multi<String>                         | io.smallrye.mutiny.Multi<java.lang.String>",
      "kotlinx.coroutines.Deferred<String>                      | kotlinx.coroutines.Deferred<java.lang.String>",
      "org.reactivestreams.Publisher<String>                    | org.reactivestreams.Publisher<java.lang.String>",
      "java.util.concurrent.Flow.Publisher<String>              | java.util.concurrent.Flow.Publisher<java.lang.String>",
  })
  void aDeferredTypeWithAPatternIsRefusedNamingTheMethodAndTheType(String written, String described) {
    JavaFileObject client = source("public interface Client {\n  @Retry\n  " + written + " item(String id);\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:deferred-return-type] Client.item returns " + described
            + ", which Brace cannot observe: the wrapper would see only the method hand it out, and the request would"
            + " run later, outside the wrapper and every pattern on it; return CompletableFuture<T> instead, or Mono<T>"
            + " or Flux<T> with dev.brace:brace-reactor on the class path")
        .inFile(client).onLineContaining(" item(String id)");
  }

  @Test
  void aSubtypeOfADeferredTypeIsRefusedAsThatType() {
    JavaFileObject client = source("public interface Client {\n"
        + "  interface Pending<T> extends retrofit2.Call<T> {}\n"
        + "  @CircuitBreaker(name = \"items\")\n"
        + "  Pending<String> item(String id);\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(
            "[brace:deferred-return-type] Client.item returns p.Client.Pending<java.lang.String>, a retrofit2.Call, which")
        .inFile(client).onLineContaining("Pending<String> item");
  }

  @Test
  void aPatternOnTheInterfaceRefusesItsDeferredMethods() {
    JavaFileObject client = source("@Timeout(\"1s\")\npublic interface Client {\n"
        + "  String name();\n"
        + "  java.util.concurrent.Future<String> item(String id);\n}");
    Compilation compilation = compile(client, false);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:deferred-return-type] Client.item returns java.util.concurrent.Future")
        .inFile(client).onLineContaining("Future<String> item");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aMethodWithoutAPatternPassesADeferredTypeStraightThrough() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Retry\n  String name();\n"
        + "  retrofit2.Call<String> item(String id);\n"
        + "  java.util.concurrent.Future<String> later(String id);\n"
        + "  reactor.core.publisher.Mono<String> reactive(String id);\n}");
    assertThat(compile(client, false)).succeeded();
  }

  /**
   * A Kotlin interface as kapt hands it to the processor: a {@code suspend fun} is a method whose
   * last parameter is the caller's continuation and which returns {@code Object} (the answer, or
   * the marker that it suspended); a {@code Flow} is an interface of kotlinx.coroutines.
   */
  private static final List<JavaFileObject> KOTLIN = List.of(
      stub("kotlin.coroutines.Continuation", "package kotlin.coroutines;\npublic interface Continuation<T> {}"),
      stub("kotlinx.coroutines.flow.Flow", "package kotlinx.coroutines.flow;\npublic interface Flow<T> {}"),
      stub("kotlinx.coroutines.flow.StateFlow",
          "package kotlinx.coroutines.flow;\npublic interface StateFlow<T> extends Flow<T> {}"));

  private static JavaFileObject kotlinInterface(String body) {
    return JavaFileObjects.forSourceString("p.Items", "package p;\nimport dev.brace.*;\n" + body);
  }

  private static Compilation compileWithKotlin(JavaFileObject client) {
    List<JavaFileObject> sources = new ArrayList<>(KOTLIN);
    sources.add(client);
    return Compiler.javac().withProcessors(new BraceProcessor()).compile(sources);
  }

  @Test
  void aSuspendFunctionWithAPatternIsRefusedNamingTheArtifact() {
    JavaFileObject client = kotlinInterface("import kotlin.coroutines.Continuation;\npublic interface Items {\n"
        + "  @Retry(maxAttempts = 3, delay = \"10ms\")\n"
        + "  Object item(String id, Continuation<? super String> $completion);\n}");
    Compilation compilation = compileWithKotlin(client);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:kotlin-missing] Items.item is a Kotlin suspend function, which Brace"
            + " protects only with dev.brace:brace-kotlin on the class path: without it the wrapper would see the call hand"
            + " back the suspension marker at its first suspension point, and the work would run later, outside every"
            + " pattern")
        .inFile(client).onLineContaining("Object item(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aFlowWithAPatternIsRefusedNamingTheArtifactAndTheFlowItExtends() {
    JavaFileObject client = kotlinInterface("import kotlinx.coroutines.flow.*;\npublic interface Items {\n"
        + "  @Retry\n  Flow<String> items();\n"
        + "  @CircuitBreaker(name = \"items\")\n  StateFlow<String> latest();\n}");
    Compilation compilation = compileWithKotlin(client);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:kotlin-missing] Items.items returns"
            + " kotlinx.coroutines.flow.Flow<java.lang.String>, which Brace protects only with dev.brace:brace-kotlin on"
            + " the class path: without it the wrapper would see the call hand back a cold flow that is collected, and"
            + " the work would run later, outside every pattern")
        .inFile(client).onLineContaining("Flow<String> items()");
    assertThat(compilation).hadErrorContaining("[brace:kotlin-missing] Items.latest returns"
            + " kotlinx.coroutines.flow.StateFlow<java.lang.String>, a kotlinx.coroutines.flow.Flow, which")
        .inFile(client).onLineContaining("StateFlow<String> latest()");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aPatternOnTheInterfaceRefusesItsSuspendFunctionsButNotItsPlainMethods() {
    JavaFileObject client = kotlinInterface("import kotlin.coroutines.Continuation;\n@Timeout(\"1s\")\npublic interface Items {\n"
        + "  String name();\n"
        + "  Object item(String id, Continuation<? super String> $completion);\n}");
    Compilation compilation = compileWithKotlin(client);
    assertThat(compilation).hadErrorContaining("[brace:kotlin-missing] Items.item is a Kotlin suspend function")
        .inFile(client).onLineContaining("Object item(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void suspendFunctionsAndFlowsWithoutAPatternPassStraightThrough() {
    JavaFileObject client = kotlinInterface("import kotlin.coroutines.Continuation;\nimport kotlinx.coroutines.flow.Flow;\n"
        + "public interface Items {\n"
        + "  @Retry\n  String name();\n"
        + "  Object item(String id, Continuation<? super String> $completion);\n"
        + "  Flow<String> items();\n}");
    assertThat(compileWithKotlin(client)).succeeded();
  }

  @Test
  void aMonoOrFluxWithoutBraceReactorIsRefusedNamingTheArtifact() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Retry\n  reactor.core.publisher.Mono<String> item(String id);\n"
        + "  @Retry\n  reactor.core.publisher.Flux<String> items();\n}");
    Compilation compilation = compile(client, false);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:reactor-missing] Client.item returns reactor.core.publisher.Mono<java.lang.String>,"
            + " which Brace protects only with dev.brace:brace-reactor: add it beside brace-runtime, at the same version,"
            + " or return CompletableFuture<T>")
        .inFile(client).onLineContaining("Mono<String> item");
    assertThat(compilation).hadErrorContaining("[brace:reactor-missing] Client.items returns reactor.core.publisher.Flux<java.lang.String>")
        .inFile(client).onLineContaining("Flux<String> items");
  }

  @Test
  void aFluxMethodWithoutBraceReactorHasItsPatternsCheckedToo() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Hedge\n  reactor.core.publisher.Flux<String> items();\n}");
    Compilation compilation = compile(client, false);
    assertThat(compilation).hadErrorContaining("[brace:reactor-missing] Client.items").inFile(client).onLineContaining("Flux<String> items");
    assertThat(compilation).hadErrorContaining("[brace:flux-pattern-unsupported] @Hedge on Client.items").inFile(client).onLineContaining("@Hedge");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aMonoOrFluxWithBraceReactorCompiles() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Retry\n  @CircuitBreaker(name = \"items\")\n  @Hedge\n  @StaleIfError\n  reactor.core.publisher.Mono<String> item(String id);\n"
        + "  @Retry\n  @Timeout(\"1s\")\n  reactor.core.publisher.Flux<String> items();\n}");
    assertThat(compile(client, true)).succeeded();
  }

  @Test
  void aSubtypeOfMonoIsRefusedAsADeferredType() {
    JavaFileObject client = source("public interface Client {\n"
        + "  abstract class Cached<T> extends reactor.core.publisher.Mono<T> {}\n"
        + "  @Retry\n  Cached<String> item(String id);\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(
            "[brace:deferred-return-type] Client.item returns p.Client.Cached<java.lang.String>, a reactor.core.publisher.Mono,")
        .inFile(client).onLineContaining("Cached<String> item");
  }

  @Test
  void aHedgeOnAFluxMethodIsRefusedOnTheAnnotation() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Retry\n  @Hedge(delay = \"50ms\")\n  reactor.core.publisher.Flux<String> items();\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:flux-pattern-unsupported] @Hedge on Client.items: a method returning Flux"
            + " cannot have it, since a hedge answers with the first whole answer of several attempts, and the elements of two"
            + " streams cannot be taken back once emitted; remove it, or return Mono<List<T>> to treat the whole stream as one answer")
        .inFile(client).onLineContaining("@Hedge");
  }

  @Test
  void staleAnswersOnTheInterfaceAreRefusedForItsFluxMethodsOnTheAnnotation() {
    JavaFileObject client = source("@StaleIfError(maxAge = \"1m\")\npublic interface Client {\n"
        + "  reactor.core.publisher.Mono<String> item(String id);\n"
        + "  reactor.core.publisher.Flux<String> items();\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining("[brace:flux-pattern-unsupported] @StaleIfError on Client.items: a method returning"
            + " Flux cannot have it, since stale answers remember one result per key, and a stream has none")
        .inFile(client).onLineContaining("@StaleIfError");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aResultPredicateOnAFluxMethodIsRefusedOnItsAttribute() {
    JavaFileObject client = source("public interface Client {\n"
        + "  class Empty implements java.util.function.Predicate<Object> { public boolean test(Object o) { return o == null; } }\n"
        + "  @Retry(onResult = Empty.class)\n  reactor.core.publisher.Flux<String> items();\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).hadErrorContaining("[brace:flux-pattern-unsupported] @Retry(onResult) on Client.items: a method"
            + " returning Flux cannot have it, since a result predicate tests one result, and a stream has none")
        .inFile(client).onLineContaining("@Retry(onResult");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aMonoMethodsFallbackReturnsAMonoOrTheValueAndItsResultPredicateTestsTheValue() {
    JavaFileObject client = source("public interface Client {\n"
        + "  class Blank implements java.util.function.Predicate<String> { public boolean test(String s) { return s.isEmpty(); } }\n"
        + "  @Retry(onResult = Blank.class) @Fallback(method = \"plain\")\n  reactor.core.publisher.Mono<String> item(String id);\n"
        + "  default String plain(String id) { return id; }\n"
        + "  @Fallback(method = \"deferred\")\n  reactor.core.publisher.Mono<CharSequence> name(String id);\n"
        + "  default reactor.core.publisher.Mono<String> deferred(String id, Exception cause) { return null; }\n"
        + "  @Fallback(method = \"zero\")\n  reactor.core.publisher.Mono<Integer> count();\n"
        + "  default int zero() { return 0; }\n}");
    assertThat(compile(client, true)).succeededWithoutWarnings();
  }

  @Test
  void aMonoMethodsFallbackOfAnotherTypeIsRefused() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Fallback(method = \"other\")\n  reactor.core.publisher.Mono<String> item(String id);\n"
        + "  default reactor.core.publisher.Mono<Integer> other(String id) { return null; }\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).hadErrorContaining("[brace:fallback-return-type] @Fallback(method = \"other\") on Client.item:"
            + " other(java.lang.String) returns reactor.core.publisher.Mono<java.lang.Integer>, which is not"
            + " reactor.core.publisher.Mono<java.lang.String> or java.lang.String or a subtype of it")
        .inFile(client).onLineContaining("@Fallback");
  }

  @Test
  void aFluxMethodsFallbackReturnsAPublisherOfItsElements() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Fallback(method = \"none\")\n  reactor.core.publisher.Flux<String> items();\n"
        + "  default org.reactivestreams.Publisher<String> none() { return null; }\n"
        + "  @Fallback(method = \"cached\")\n  reactor.core.publisher.Flux<CharSequence> names();\n"
        + "  default reactor.core.publisher.Flux<String> cached(Exception cause) { return null; }\n}");
    assertThat(compile(client, true)).succeededWithoutWarnings();
  }

  @Test
  void aFluxMethodsFallbackReturningAPlainValueIsRefused() {
    JavaFileObject client = source("public interface Client {\n"
        + "  @Fallback(method = \"none\")\n  reactor.core.publisher.Flux<String> items();\n"
        + "  default String none() { return \"\"; }\n}");
    Compilation compilation = compile(client, true);
    assertThat(compilation).hadErrorContaining("[brace:fallback-return-type] @Fallback(method = \"none\") on Client.items:"
            + " none() returns java.lang.String, which is not reactor.core.publisher.Flux<java.lang.String> or"
            + " org.reactivestreams.Publisher<java.lang.String> or a subtype of it")
        .inFile(client).onLineContaining("@Fallback");
  }
}
