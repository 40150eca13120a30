package dev.brace.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import javax.lang.model.SourceVersion;
import org.junit.jupiter.api.Test;

/** How the processor presents itself to javac and to Gradle. */
class BraceProcessorTest {

  @Test
  void supportsEveryBraceAnnotationAtTheLatestSourceVersionWithoutOptions() {
    BraceProcessor processor = new BraceProcessor();
    assertEquals(
        Set.of("dev.brace.Retry", "dev.brace.Hedge", "dev.brace.CircuitBreaker", "dev.brace.RateLimit",
            "dev.brace.Bulkhead", "dev.brace.Timeout", "dev.brace.Fallback", "dev.brace.StaleIfError"),
        processor.getSupportedAnnotationTypes());
    assertEquals(SourceVersion.latestSupported(), processor.getSupportedSourceVersion());
    assertTrue(processor.getSupportedOptions().isEmpty());
  }

  @Test
  void isDeclaredIsolatingForGradle() throws IOException {
    assertEquals("dev.brace.processor.BraceProcessor,isolating", resource("META-INF/gradle/incremental.annotation.processors"));
  }

  @Test
  void isRegisteredAsAServiceByAutoService() throws IOException {
    assertEquals("dev.brace.processor.BraceProcessor", resource("META-INF/services/javax.annotation.processing.Processor"));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = BraceProcessor.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }
}
