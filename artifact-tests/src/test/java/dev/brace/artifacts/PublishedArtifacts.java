package dev.brace.artifacts;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What we publish, and where the build put it. A new published module goes into {@link #MODULE_NAMES},
 * into bom/pom.xml, and into this module's pom (a dependency and a {@code brace.jar.*} property).
 */
final class PublishedArtifacts {

  /** artifactId → the Automatic-Module-Name users write in {@code requires}: each jar's root package. */
  static final Map<String, String> MODULE_NAMES = moduleNames();

  /** Reactor modules that are built and tested but never deployed. */
  static final Set<String> NOT_PUBLISHED =
      Set.of(
          "brace-integration-tests",
          "brace-reliability",
          "brace-examples",
          "brace-examples-spring",
          "brace-examples-kotlin",
          "brace-benchmarks",
          "brace-artifact-tests",
          "brace-bom");

  private PublishedArtifacts() {}

  private static Map<String, String> moduleNames() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("brace-annotations", "dev.brace");
    names.put("brace-runtime", "dev.brace.runtime");
    names.put("brace-processor", "dev.brace.processor");
    names.put("brace-reactor", "dev.brace.reactor");
    names.put("brace-kotlin", "dev.brace.kotlin");
    names.put("brace-micrometer", "dev.brace.micrometer");
    names.put("brace-redis", "dev.brace.redis");
    names.put("brace-spring-boot-starter", "dev.brace.spring");
    names.put("brace-test", "dev.brace.test");
    return names;
  }

  /** The packaged jar of a dependency of this module, as Maven resolved it. */
  static Path jar(String artifactId) {
    String property = "brace.jar." + artifactId;
    String value = System.getProperty(property);
    if (value == null || value.startsWith("${")) {
      return fail("no " + property + ": add " + artifactId + " as a dependency of artifact-tests and pass"
          + " its file in failsafe's systemPropertyVariables");
    }
    Path jar = Path.of(value);
    if (!Files.isRegularFile(jar) || !jar.toString().endsWith(".jar")) {
      return fail(property + " is " + value + ", not a jar: these tests need the packaged artifacts"
          + " (run them with mvn verify)");
    }
    return jar;
  }

  /** A file attached beside a jar by the build: {@code -sources.jar}, {@code -javadoc.jar}. */
  static Path attached(Path jar, String classifier) {
    String name = jar.getFileName().toString();
    return jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + "-" + classifier + ".jar");
  }

  static Path root() {
    return Path.of(System.getProperty("brace.root", "..")).toAbsolutePath().normalize();
  }

  static String version() {
    return System.getProperty("brace.version");
  }
}
