package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import dev.brace.runtime.support.GeneratedResources;
import java.io.IOException;
import java.io.Writer;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.Filer;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes the names and kinds of the instances one wrapper uses to {@code
 * META-INF/brace/instances/<interface binary name>}, one line {@code <kind> <name>} each. One file
 * per interface keeps the processor isolating; the registry reads them all to catch configuration
 * keys that name nothing (a typo).
 */
final class ManifestWriter {
  private final Filer filer;
  private final Elements elements;

  ManifestWriter(Filer filer, Elements elements) {
    this.filer = filer;
    this.elements = elements;
  }

  void write(WrapperModel model) throws IOException {
    Set<String> lines = new TreeSet<>();
    for (MethodModel method : model.methods()) {
      if (!method.patterns().isEmpty()) {
        // Every call takes part in deadlines under its own name (BRACE_DEADLINE_<CALL>_INHERIT).
        lines.add(Kind.DEADLINE.key() + " " + method.callName());
        // Fault injection may address a call by its own name, which no pattern need carry.
        lines.add(Kind.CHAOS.key() + " " + method.callName());
      }
      for (PatternModel pattern : method.patterns()) {
        lines.add(pattern.kind().key() + " " + pattern.name());
        for (Setting setting : pattern.settings()) {
          if (setting.attribute().equals("budget") && setting.value() instanceof Setting.Text budget && !budget.text().isEmpty()) {
            lines.add(Kind.RETRYBUDGET.key() + " " + budget.text());
          }
        }
      }
    }
    if (lines.isEmpty()) {
      return;
    }
    String binaryName = elements.getBinaryName(model.iface()).toString();
    FileObject file = filer.createResource(
        StandardLocation.CLASS_OUTPUT, "", GeneratedResources.INSTANCE_LISTS + binaryName, model.iface());
    try (Writer out = file.openWriter()) {
      out.write("# Written by brace-processor for " + binaryName + ": the instances its wrapper uses.\n");
      for (String line : lines) {
        out.write(line);
        out.write('\n');
      }
    }
  }
}
