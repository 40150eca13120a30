package dev.brace.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.SourceVersion;
import org.junit.jupiter.api.Test;

/** How the processor presents itself to javac and to Gradle. */
class BraceProcessorTest {

  @Test
  void supportsEveryPatternsAnnotationAndNotIdempotentAtTheLatestSourceVersionWithoutOptions() {
    BraceProcessor processor = new BraceProcessor();
    Set<String> expected = new HashSet<>(Set.of("dev.brace.NotIdempotent"));
    Kind.annotated().forEach(kind -> expected.add(kind.annotation().getCanonicalName()));
    assertTrue(expected.containsAll(Set.of("dev.brace.Retry", "dev.brace.Hedge", "dev.brace.CircuitBreaker", "dev.brace.RateLimit",
        "dev.brace.Bulkhead", "dev.brace.Timeout", "dev.brace.Fallback",
        "dev.brace.StaleIfError")));
    assertEquals(expected, processor.getSupportedAnnotationTypes());
    assertEquals(SourceVersion.latestSupported(), processor.getSupportedSourceVersion());
    assertTrue(processor.getSupportedOptions().isEmpty());
  }

  /** The wrappers one per interface, isolating; the index of them all, aggregating, in a processor of its own. */
  @Test
  void isDeclaredIsolatingForGradleAndItsIndexAggregating() throws IOException {
    assertEquals("dev.brace.processor.BraceProcessor,isolating\ndev.brace.processor.WrapperIndexProcessor,aggregating",
        resource("META-INF/gradle/incremental.annotation.processors"));
  }

  @Test
  void theIndexProcessorReadsOnlyTheFactoriesMark() {
    WrapperIndexProcessor index = new WrapperIndexProcessor();
    assertEquals(Set.of("dev.brace.runtime.support.WrapperFactory.Indexed"), index.getSupportedAnnotationTypes());
    assertEquals(SourceVersion.latestSupported(), index.getSupportedSourceVersion());
    assertTrue(index.getSupportedOptions().isEmpty());
  }

  @Test
  void bothAreRegisteredAsServicesByAutoService() throws IOException {
    assertEquals(Set.of("dev.brace.processor.BraceProcessor", "dev.brace.processor.WrapperIndexProcessor"),
        Set.of(resource("META-INF/services/javax.annotation.processing.Processor").split("\\R")));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = BraceProcessor.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }
}
