package dev.brace.processor;

import java.io.IOException;
import java.io.Writer;
import javax.annotation.processing.Filer;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes, beside each wrapper, what a GraalVM native image needs for {@code Brace.wrap} to find it:
 * the wrapper class and its static {@code wrap(Interface, Registry)}, conditional on the interface
 * being reached, in {@code META-INF/native-image/dev.brace.generated/<interface binary
 * name>/reachability-metadata.json}. One file per interface keeps the processor isolating; {@code
 * native-image} reads every such file on the class path, so a native image finds the application's
 * wrappers with no metadata of its own.
 */
final class NativeImageMetadataWriter {
  /** Where the files go, one folder per interface. */
  static final String FOLDER = "META-INF/native-image/dev.brace.generated/";

  private final Filer filer;
  private final Elements elements;

  NativeImageMetadataWriter(Filer filer, Elements elements) {
    this.filer = filer;
    this.elements = elements;
  }

  void write(WrapperModel model) throws IOException {
    String iface = elements.getBinaryName(model.iface()).toString();
    String packageName = Naming.packageName(model.iface());
    String wrapper = (packageName.isEmpty() ? "" : packageName + ".") + Naming.wrapperName(model.iface());
    FileObject file = filer.createResource(
        StandardLocation.CLASS_OUTPUT, "", FOLDER + iface + "/reachability-metadata.json", model.iface());
    try (Writer out = file.openWriter()) {
      out.write("{\n"
          + "  \"comment\": \"Written by brace-processor: what Brace.wrap reaches to find " + iface + "'s wrapper.\",\n"
          + "  \"reflection\": [\n"
          + "    {\n"
          + "      \"condition\": {\"typeReached\": \"" + iface + "\"},\n"
          + "      \"type\": \"" + wrapper + "\",\n"
          + "      \"methods\": [{\"name\": \"wrap\", \"parameterTypes\": [\"" + iface + "\", \"dev.brace.runtime.Registry\"]}]\n"
          + "    }\n"
          + "  ]\n"
          + "}\n");
    }
  }
}
