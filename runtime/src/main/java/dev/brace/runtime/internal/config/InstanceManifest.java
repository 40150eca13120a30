package dev.brace.runtime.internal.config;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.support.GeneratedResources;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The names and kinds of every instance the processor generated code for, read from the small
 * files it writes under {@value #FOLDER} (one per interface, lines {@code <kind> <name>}). The
 * registry uses them to tell a configuration key that names nothing from one that names an
 * instance not created yet.
 */
public final class InstanceManifest {
  /** Where the processor writes one file per wrapped interface. */
  public static final String FOLDER = GeneratedResources.INSTANCE_LISTS;

  private final Map<Kind, Set<String>> names;

  private InstanceManifest(Map<Kind, Set<String>> names) {
    this.names = names;
  }

  /**
   * @param names known names per kind
   * @return a manifest of exactly those
   */
  public static InstanceManifest of(Map<Kind, Set<String>> names) {
    Map<Kind, Set<String>> copy = new EnumMap<>(Kind.class);
    names.forEach((kind, set) -> copy.put(kind, Collections.unmodifiableSet(new TreeSet<>(set))));
    return new InstanceManifest(copy);
  }

  /**
   * Reads every manifest file the class loader can see.
   *
   * @param loader where to look
   * @return the names found (none when the processor never ran)
   */
  public static InstanceManifest load(ClassLoader loader) {
    Map<Kind, Set<String>> names = new EnumMap<>(Kind.class);
    for (String text : read(loader)) {
      for (String line : text.split("\n")) {
        String trimmed = line.trim();
        int space = trimmed.indexOf(' ');
        if (trimmed.isEmpty() || trimmed.startsWith("#") || space < 0) {
          continue;
        }
        Kind kind = kindOf(trimmed.substring(0, space));
        if (kind != null) {
          names.computeIfAbsent(kind, k -> new TreeSet<>()).add(trimmed.substring(space + 1).trim());
        }
      }
    }
    return of(names);
  }

  /** @return the names known for {@code kind} */
  public Set<String> names(Kind kind) {
    return names.getOrDefault(kind, Set.of());
  }

  /**
   * @param more further names per kind
   * @return a manifest with the names of both
   */
  public InstanceManifest plus(Map<Kind, ? extends java.util.Collection<String>> more) {
    Map<Kind, Set<String>> merged = new EnumMap<>(Kind.class);
    names.forEach((kind, set) -> merged.put(kind, new TreeSet<>(set)));
    more.forEach((kind, set) -> merged.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(set));
    return of(merged);
  }

  private static Kind kindOf(String key) {
    for (Kind kind : Kind.values()) {
      if (kind.key().equals(key)) {
        return kind;
      }
    }
    return null;
  }

  private static List<String> read(ClassLoader loader) {
    List<String> texts = new ArrayList<>();
    if (loader == null) {
      return texts;
    }
    try {
      Enumeration<URL> folders = loader.getResources(FOLDER);
      while (folders.hasMoreElements()) {
        URL folder = folders.nextElement();
        for (String file : list(folder)) {
          URL entry = loader.getResource(FOLDER + file);
          if (entry != null) {
            texts.add(readAll(entry));
          }
        }
      }
    } catch (IOException unreadable) {
      // A manifest that cannot be read only weakens typo detection; configuration still applies.
    }
    return texts;
  }

  private static List<String> list(URL folder) throws IOException {
    List<String> files = new ArrayList<>();
    if ("file".equals(folder.getProtocol())) {
      String[] names = new File(java.net.URLDecoder.decode(folder.getPath(), StandardCharsets.UTF_8)).list();
      if (names != null) {
        Collections.addAll(files, names);
      }
    } else {
      URLConnection connection = folder.openConnection();
      if (connection instanceof JarURLConnection) {
        connection.setUseCaches(false);
        try (JarFile jar = ((JarURLConnection) connection).getJarFile()) {
          Enumeration<JarEntry> entries = jar.entries();
          while (entries.hasMoreElements()) {
            String name = entries.nextElement().getName();
            if (name.startsWith(FOLDER) && name.length() > FOLDER.length() && !name.endsWith("/")) {
              files.add(name.substring(FOLDER.length()));
            }
          }
        }
      }
    }
    return files;
  }

  private static String readAll(URL url) throws IOException {
    URLConnection connection = url.openConnection();
    connection.setUseCaches(false);
    try (InputStream in = connection.getInputStream();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      StringBuilder text = new StringBuilder();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        text.append(line).append('\n');
      }
      return text.toString();
    }
  }
}
