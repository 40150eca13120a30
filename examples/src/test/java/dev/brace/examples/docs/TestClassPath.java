package dev.brace.examples.docs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/** The class path this JVM's tests run on, as javac takes it, whole or without one artifact. */
final class TestClassPath {
  private TestClassPath() {}

  /** @return every entry */
  static String whole() {
    return System.getProperty("java.class.path");
  }

  /**
   * @param className a class of the artifact to leave out, such as brace-reactor's entry class
   * @return every entry but the directory or jar that holds {@code className}: the class path of a
   *     build that lacks that artifact
   * @throws IllegalStateException when no entry holds it (the test would prove nothing)
   */
  static String without(String className) {
    String file = className.replace('.', '/') + ".class";
    List<String> kept = new ArrayList<>();
    boolean found = false;
    for (String entry : whole().split(File.pathSeparator)) {
      if (holds(Path.of(entry), file)) {
        found = true;
      } else {
        kept.add(entry);
      }
    }
    if (!found) {
      throw new IllegalStateException("no entry of the test class path holds " + className);
    }
    return String.join(File.pathSeparator, kept);
  }

  private static boolean holds(Path entry, String file) {
    if (Files.isDirectory(entry)) {
      return Files.isRegularFile(entry.resolve(file));
    }
    if (!Files.isRegularFile(entry)) {
      return false;
    }
    try (ZipFile jar = new ZipFile(entry.toFile())) {
      return jar.getEntry(file) != null;
    } catch (IOException unreadable) {
      throw new UncheckedIOException("cannot read " + entry, unreadable);
    }
  }
}
