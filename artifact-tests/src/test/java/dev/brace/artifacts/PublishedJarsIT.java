package dev.brace.artifacts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each published jar as it would be deployed: its module name, its license, what lies beside it. */
class PublishedJarsIT {

  @Test
  void everyJarNamesItsModuleAfterItsRootPackage() throws IOException {
    for (Map.Entry<String, String> published : PublishedArtifacts.MODULE_NAMES.entrySet()) {
      Path jar = PublishedArtifacts.jar(published.getKey());
      try (JarFile file = new JarFile(jar.toFile())) {
        assertNotNull(file.getManifest(), jar + " has no manifest");
        assertEquals(
            published.getValue(),
            file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
            jar + ": Automatic-Module-Name");
      }
      // What the module system itself derives from the jar: the name is valid and is the one above.
      Set<ModuleReference> found = ModuleFinder.of(jar).findAll();
      assertEquals(1, found.size());
      ModuleDescriptor descriptor = found.iterator().next().descriptor();
      assertTrue(descriptor.isAutomatic(), jar + " is an automatic module until it ships a module-info");
      assertEquals(published.getValue(), descriptor.name());
      assertTrue(
          descriptor.packages().stream().allMatch(p -> p.equals(descriptor.name()) || p.startsWith(descriptor.name() + ".")),
          jar + " holds a package outside its module name: " + descriptor.packages());
    }
  }

  @Test
  void noPackageIsSplitBetweenPublishedJars() {
    Map<String, String> owner = new HashMap<>();
    for (String artifactId : PublishedArtifacts.MODULE_NAMES.keySet()) {
      Path jar = PublishedArtifacts.jar(artifactId);
      for (String pkg : ModuleFinder.of(jar).findAll().iterator().next().descriptor().packages()) {
        String previous = owner.put(pkg, artifactId);
        assertEquals(null, previous, pkg + " is in both " + previous + " and " + artifactId);
      }
    }
  }

  @Test
  void everyJarCarriesTheLicenseAndNotice() throws IOException {
    byte[] license = Files.readAllBytes(PublishedArtifacts.root().resolve("LICENSE"));
    byte[] notice = Files.readAllBytes(PublishedArtifacts.root().resolve("NOTICE"));
    for (String artifactId : PublishedArtifacts.MODULE_NAMES.keySet()) {
      Path jar = PublishedArtifacts.jar(artifactId);
      assertArrayEquals(license, entry(jar, "META-INF/LICENSE"), jar + ": META-INF/LICENSE");
      assertArrayEquals(notice, entry(jar, "META-INF/NOTICE"), jar + ": META-INF/NOTICE");
    }
  }

  @Test
  void sourcesAndJavadocLieBesideEveryJar() throws IOException {
    for (String artifactId : PublishedArtifacts.MODULE_NAMES.keySet()) {
      Path jar = PublishedArtifacts.jar(artifactId);
      Set<String> sources = names(PublishedArtifacts.attached(jar, "sources"));
      assertTrue(sources.stream().anyMatch(n -> n.endsWith(".java") || n.endsWith(".kt")), artifactId + "-sources.jar has no source");
      Set<String> javadoc = names(PublishedArtifacts.attached(jar, "javadoc"));
      assertTrue(javadoc.contains("index.html"), artifactId + "-javadoc.jar has no index.html");
      // Implementation packages are not API: they get no pages.
      assertEquals(
          Set.of(),
          javadoc.stream().filter(n -> n.contains("/internal/")).collect(Collectors.toSet()),
          artifactId + "-javadoc.jar documents internal packages");
    }
  }

  private static byte[] entry(Path jar, String name) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      assertNotNull(file.getEntry(name), jar + " has no " + name);
      try (InputStream in = file.getInputStream(file.getEntry(name))) {
        return in.readAllBytes();
      }
    }
  }

  private static Set<String> names(Path jar) throws IOException {
    assertTrue(Files.isRegularFile(jar), jar + " was not built");
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream().map(e -> e.getName()).collect(Collectors.toSet());
    }
  }
}
