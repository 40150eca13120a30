package dev.brace.spring;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * An application whose annotated interface was compiled without brace-processor, the most likely
 * first mistake: the interface is compiled here by javac with annotation processing off, as a build
 * without {@code annotationProcessorPaths} compiles it, and its bean is a JDK proxy, as a Spring
 * HTTP interface's is. The application does not start unless told to run it unprotected.
 */
class ProcessorMissingTest {
  @TempDir
  static Path compiled;

  /** Interfaces compiled without the processor: one with Brace's annotations, one with none. */
  private static ClassLoader unprocessed;

  @BeforeAll
  static void compileWithoutTheProcessor() throws IOException {
    Path sources = Files.createDirectories(compiled.resolve("src/app"));
    Files.writeString(sources.resolve("ItemsApi.java"), """
        package app;

        import dev.brace.CircuitBreaker;
        import dev.brace.Retry;

        @CircuitBreaker(name = "items-api")
        public interface ItemsApi {
          @Retry(maxAttempts = 3)
          String item(String id);
        }
        """, StandardCharsets.UTF_8);
    // What kotlinc leaves on every class it compiles: how the starter tells a Kotlin interface,
    // whose processors run under kapt, from a Java one.
    Files.writeString(sources.resolve("KotlinItemsApi.java"), """
        package app;

        import dev.brace.Retry;

        @kotlin.Metadata(k = 1, mv = {2, 2, 0})
        public interface KotlinItemsApi {
          @Retry(maxAttempts = 3)
          String item(String id);
        }
        """, StandardCharsets.UTF_8);
    Files.writeString(sources.resolve("Greeter.java"), """
        package app;

        public interface Greeter {
          String greet(String name);
        }
        """, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(compiled.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> arguments = new ArrayList<>(List.of("-proc:none", "--release", "17",
        "-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
    arguments.add(sources.resolve("ItemsApi.java").toString());
    arguments.add(sources.resolve("KotlinItemsApi.java").toString());
    arguments.add(sources.resolve("Greeter.java").toString());
    int status = javac.run(null, null, null, arguments.toArray(String[]::new));
    assertThat(status).as("javac of the fixture interfaces").isZero();
    assertThat(classes.resolve("app/ResilientItemsApi.class")).as("no processor ran").doesNotExist();
    unprocessed = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ProcessorMissingTest.class.getClassLoader());
  }

  /** @return a bean implementing {@code name}, a JDK proxy as an HTTP interface client is */
  @SuppressWarnings("unchecked")
  private static <T> Supplier<T> proxyOf(Class<T> type) {
    return () -> (T) Proxy.newProxyInstance(unprocessed, new Class<?>[] {type},
        (proxy, method, arguments) -> method.getName().equals("toString") ? "proxy" : "answer " + arguments[0]);
  }

  @SuppressWarnings("unchecked")
  private static ApplicationContextRunner applicationWith(String interfaceName) throws ClassNotFoundException {
    Class<Object> type = (Class<Object>) unprocessed.loadClass(interfaceName);
    return new ApplicationContextRunner()
        .withClassLoader(unprocessed)
        .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class))
        .withBean("items", type, proxyOf(type));
  }

  @Test
  void anAnnotatedInterfaceWithoutItsWrapperStopsTheStartSayingWhatToAdd() throws Exception {
    applicationWith("app.ItemsApi").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure().getMessage())
          .startsWith("Error creating bean with name 'items': [brace:processor-missing] bean 'items' (")
          .contains("implements app.ItemsApi, which carries @CircuitBreaker, @Retry but has no generated wrapper"
              + " app.ResilientItemsApi")
          .contains("dev.brace:brace-processor")
          .contains("<annotationProcessorPaths><path><groupId>dev.brace</groupId><artifactId>brace-processor</artifactId>")
          .contains("Gradle: annotationProcessor(\"dev.brace:brace-processor:")
          .endsWith("set brace.processor-missing=warn");
    });
  }

  @Test
  void aKotlinInterfaceWithoutItsWrapperIsToldToRunTheProcessorUnderKapt() throws Exception {
    applicationWith("app.KotlinItemsApi").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure().getMessage())
          .contains("implements app.KotlinItemsApi, which carries @Retry but has no generated wrapper"
              + " app.ResilientKotlinItemsApi")
          .contains("to the kapt annotation processors of the module that declares KotlinItemsApi")
          .contains("kotlin-maven-plugin's kapt goal: <annotationProcessorPaths><annotationProcessorPath><groupId>dev.brace"
              + "</groupId><artifactId>brace-processor</artifactId>")
          .contains("Gradle: the kotlin(\"kapt\") plugin and kapt(\"dev.brace:brace-processor:")
          .doesNotContain("maven-compiler-plugin")
          .endsWith("set brace.processor-missing=warn");
    });
  }

  @Test
  void askedToWarnItStartsWithTheBeanUnwrappedAndWarnsOnce() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.brace");
    ListAppender<ILoggingEvent> warnings = new ListAppender<>();
    warnings.start();
    logger.addAppender(warnings);
    try {
      Class<?> type = unprocessed.loadClass("app.ItemsApi");
      applicationWith("app.ItemsApi")
          .withBean("moreItems", (Class<Object>) type, proxyOf((Class<Object>) type))
          .withPropertyValues("brace.processor-missing=warn")
          .run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(Proxy.isProxyClass(context.getBean("items").getClass())).as("left as it was").isTrue();
            assertThat(warnings.list).extracting(ILoggingEvent::getFormattedMessage)
                .filteredOn(line -> line.startsWith("[brace:processor-missing]"))
                .as("once for the interface, not once per bean")
                .hasSize(1);
            assertThat(warnings.list).extracting(ILoggingEvent::getFormattedMessage)
                .as("the starter's own key configures no instance").noneMatch(line -> line.contains("unknown")
                    || line.contains("processor-missing ="));
          });
    } finally {
      logger.detachAppender(warnings);
    }
  }

  @Test
  void anInterfaceWithoutBraceAnnotationsNeedsNoWrapper() throws Exception {
    applicationWith("app.Greeter").run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void anInterfaceWhoseWrapperWasGeneratedIsWrappedAsBefore() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BraceAutoConfiguration.class))
        .withBean("catalog", Catalog.class, () -> id -> "item " + id)
        .run(context -> assertThat(context.getBean(Catalog.class)).isInstanceOf(ResilientCatalog.class));
  }

  @Test
  void anotherValueIsRefusedNamingTheKey() throws Exception {
    applicationWith("app.Greeter").withPropertyValues("brace.processor-missing=ignore").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause().message()
          .startsWith("[brace:processor-missing] brace.processor-missing = 'ignore' is not accepted; accepted: fail");
    });
  }
}
