package dev.brace.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.brace.runtime.Registry;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index {@code Brace.wrap} reads: a {@code WrapperFactory} nested in each wrapper, and one
 * service file listing them all.
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
        + "p.ResilientOuter_Api_Deep$Factory\n"
        + "p.ResilientOuter_Inner$Factory\n"
        + "p.ResilientRepo$Factory\n");
  }

  /**
   * ServiceLoader finds each factory and wraps with it, as {@code Brace.wrap} does: the nested
   * factory is public, as ServiceLoader requires, though the interface and its wrapper are not
   * (Outer.Inner); a generic interface (Repo) is cast by capture.
   */
  @Test
  void serviceLoaderFindsEachFactoryAndItWrapsThroughTheWrappersOwnWrap(@TempDir Path classes) throws Exception {
    Compilation compilation = compile(GoldenTest.good("Outer"), GoldenTest.good("Repo"));
    assertThat(compilation).succeededWithoutWarnings();

    try (URLClassLoader loader = loaderOf(compilation, classes)) {
      Map<String, WrapperFactory> byType = new TreeMap<>();
      ServiceLoader.load(WrapperFactory.class, loader).forEach(factory -> byType.put(factory.type().getName(), factory));
      assertThat(byType.keySet()).containsExactly("p.Outer$Api$Deep", "p.Outer$Inner", "p.Repo");

      WrapperFactory inner = byType.get("p.Outer$Inner");
      assertThat(inner.wrapperType().getName()).isEqualTo("p.ResilientOuter_Inner");
      assertThat(Modifier.isPublic(inner.wrapperType().getModifiers())).isFalse();
      Object delegate = Proxy.newProxyInstance(loader, new Class<?>[] {inner.type()}, (proxy, method, args) -> "pong");
      Object wrapped = inner.wrap(delegate, Registry.builder().build());
      assertThat(wrapped.getClass()).isEqualTo(inner.wrapperType());
      Method ping = inner.type().getMethod("ping");
      ping.setAccessible(true);
      assertThat(ping.invoke(wrapped)).isEqualTo("pong");
    }
  }

  /** A member type the interface declares keeps its name inside the wrapper: the factory takes another. */
  @Test
  void theFactoryTakesAnotherNameWhenTheInterfaceHasAMemberTypeCalledFactory() throws Exception {
    Compilation compilation = compile(JavaFileObjects.forSourceString("p.Shop", """
        package p;
        import dev.brace.Retry;
        public interface Shop {
          interface Factory { String name(); }
          @Retry
          Factory factory();
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();

    String index = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, SERVICE_FILE).orElseThrow()
        .getCharContent(true).toString();
    assertThat(index).endsWith("\np.ResilientShop$Factory_\n");
    String wrapper = compilation.generatedSourceFile("p.ResilientShop").orElseThrow().getCharContent(true).toString();
    assertThat(wrapper).contains("public Shop.Factory factory()");
  }

  @Test
  void aCompilationWithoutWrappersWritesNoIndex() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("p.Plain", "package p; public interface Plain { String call(); }"));
    assertThat(compilation).succeededWithoutWarnings();

    assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, SERVICE_FILE).isPresent()).isFalse();
  }

  /** An interface called Factory is still named as itself inside its wrapper, whose factory has the same simple name. */
  @Test
  void anInterfaceCalledFactoryIsWrittenQualifiedBesideTheNestedFactory() throws Exception {
    Compilation compilation = compile(JavaFileObjects.forSourceString("p.Factory", """
        package p;
        import dev.brace.Retry;
        public interface Factory {
          @Retry
          Factory next();
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();

    String wrapper = compilation.generatedSourceFile("p.ResilientFactory").orElseThrow().getCharContent(true).toString();
    assertThat(wrapper).contains("public p.Factory next()");
    assertThat(wrapper).contains("return p.Factory.class;");
  }

  /** The compilation's class files and resources, written out and loaded over this test's class path (the runtime). */
  private static URLClassLoader loaderOf(Compilation compilation, Path classes) throws IOException {
    for (JavaFileObject file : compilation.generatedFiles()) {
      String name = file.toUri().getPath();
      int output = name.indexOf("/CLASS_OUTPUT/");
      if (output >= 0) {
        Path target = classes.resolve(name.substring(output + "/CLASS_OUTPUT/".length()));
        Files.createDirectories(target.getParent());
        try (InputStream in = file.openInputStream()) {
          Files.copy(in, target);
        }
      }
    }
    return new URLClassLoader(new URL[] {classes.toUri().toURL()}, WrapperIndexTest.class.getClassLoader());
  }
}
