package dev.brace.runtime.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The processor's manifest read from a packaged application: a jar on the class path. */
class InstanceManifestTest {

  @Test
  void theManifestsInAJarAreReadAndOnlyTheirFilesCount(@TempDir Path folder) throws IOException {
    Path jar = folder.resolve("app.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String directory : new String[] {"META-INF/", "META-INF/brace/", InstanceManifest.FOLDER,
          InstanceManifest.FOLDER + "nested/"}) {
        out.putNextEntry(new JarEntry(directory));
        out.closeEntry();
      }
      write(out, InstanceManifest.FOLDER + "com.example.Client",
          "# written by the processor\n\nbulkhead pool\n  retry Client.fetch  \nnoname\nunknownkind x\n");
      write(out, InstanceManifest.FOLDER + "com.example.Other", "circuitbreaker payments\n");
      // Beside the folder, not in it: never read as a manifest.
      write(out, "META-INF/brace/instances.txt", "circuitbreaker beside\n");
    }

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      InstanceManifest manifest = InstanceManifest.load(loader);
      assertEquals(Set.of("pool"), manifest.names(Kind.BULKHEAD));
      assertEquals(Set.of("Client.fetch"), manifest.names(Kind.RETRY));
      assertEquals(Set.of("payments"), manifest.names(Kind.CIRCUITBREAKER));
      assertEquals(Set.of(), manifest.names(Kind.TIMEOUT));
      // Read twice: the first read must not close the jar under the class loader's feet.
      assertEquals(Set.of("payments"), InstanceManifest.load(loader).names(Kind.CIRCUITBREAKER));
    }
  }

  @Test
  void readingTheManifestLeavesTheJarOpenForEveryOtherReader(@TempDir Path folder) throws IOException {
    Path jar = folder.resolve("app.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String directory : new String[] {"META-INF/", "META-INF/brace/", InstanceManifest.FOLDER}) {
        out.putNextEntry(new JarEntry(directory));
        out.closeEntry();
      }
      write(out, InstanceManifest.FOLDER + "com.example.Client", "bulkhead pool\n");
    }
    URL folderUrl = new URL("jar:" + jar.toUri() + "!/" + InstanceManifest.FOLDER);
    URL entryUrl = new URL("jar:" + jar.toUri() + "!/" + InstanceManifest.FOLDER + "com.example.Client");
    // Another reader of the jar (a ServiceLoader, a framework) holds the JVM's shared, cached JarFile.
    java.net.JarURLConnection other = (java.net.JarURLConnection) folderUrl.openConnection();
    java.util.jar.JarFile shared = other.getJarFile();
    try {
      try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
        assertEquals(Set.of("pool"), InstanceManifest.load(loader).names(Kind.BULKHEAD));
      }
      try (java.io.InputStream in = shared.getInputStream(shared.getEntry(InstanceManifest.FOLDER + "com.example.Client"))) {
        assertEquals("bulkhead pool\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      try (java.io.InputStream in = entryUrl.openStream()) {
        assertEquals("bulkhead pool\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } finally {
      shared.close();
    }
  }

  @Test
  void withoutAClassLoaderNothingIsKnown() {
    for (Kind kind : Kind.values()) {
      assertTrue(InstanceManifest.load(null).names(kind).isEmpty(), kind.toString());
    }
  }

  private static void write(JarOutputStream out, String name, String text) throws IOException {
    out.putNextEntry(new JarEntry(name));
    OutputStream entry = out;
    entry.write(text.getBytes(StandardCharsets.UTF_8));
    out.closeEntry();
  }
}
