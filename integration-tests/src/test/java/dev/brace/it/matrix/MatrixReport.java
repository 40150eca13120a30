package dev.brace.it.matrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every cell's result, in the order the cells were declared, and the report printed once the
 * matrix has run: its size, the counts, a grid per scenario, and every failure and every cell
 * that does not apply with its reason. The same, with one row per cell, goes to
 * {@code target/conformance-matrix.md}.
 */
final class MatrixReport {
  enum Result { PASSED, FAILED, NOT_APPLICABLE }

  record Entry(Scenario scenario, Form form, Layer layer, BackendChoice backend, boolean listening, Result result, String reason) {}

  private final List<Entry> entries = new ArrayList<>();

  synchronized void add(Entry entry) {
    entries.add(entry);
  }

  synchronized String render(int scenarios) {
    Map<Result, Integer> counts = new TreeMap<>();
    entries.forEach(entry -> counts.merge(entry.result(), 1, Integer::sum));
    StringBuilder out = new StringBuilder("# Conformance matrix\n\n");
    out.append(String.format("%d scenarios × %d forms × %d layers × %d backends × 2 (with and without a metrics listener) = %d cells; %d ran%n%n",
        scenarios, Form.values().length, Layer.values().length, BackendChoice.values().length,
        scenarios * Form.values().length * Layer.values().length * BackendChoice.values().length * 2, entries.size()));
    out.append(String.format("passed %d, failed %d, not applicable %d%n%n",
        counts.getOrDefault(Result.PASSED, 0), counts.getOrDefault(Result.FAILED, 0), counts.getOrDefault(Result.NOT_APPLICABLE, 0)));
    out.append("Grids: a row per form and layer, a column per backend and listener; ")
        .append("✓ passed, ✗ failed, – not applicable.\n");
    Map<String, List<Entry>> byScenario = new LinkedHashMap<>();
    entries.forEach(entry -> byScenario.computeIfAbsent(entry.scenario().title, title -> new ArrayList<>()).add(entry));
    byScenario.forEach((title, cells) -> grid(out, title, cells));
    out.append("\n## Cells that failed\n\n");
    entries.stream().filter(entry -> entry.result() == Result.FAILED)
        .forEach(entry -> out.append("- ").append(name(entry)).append(": ").append(entry.reason()).append('\n'));
    out.append("\n## Cells that do not apply\n\n");
    entries.stream().filter(entry -> entry.result() == Result.NOT_APPLICABLE)
        .forEach(entry -> out.append("- ").append(name(entry)).append(": ").append(entry.reason()).append('\n'));
    return out.toString();
  }

  private static void grid(StringBuilder out, String title, List<Entry> cells) {
    out.append("\n### ").append(title).append("\n\n| form · layer |");
    for (BackendChoice backend : BackendChoice.values()) {
      out.append(' ').append(backend.title).append(" |").append(' ').append(backend.title).append(" + listener |");
    }
    out.append("\n|---|---|---|---|---|\n");
    for (Form form : Form.values()) {
      for (Layer layer : Layer.values()) {
        out.append("| ").append(form.title).append(" · ").append(layer.title).append(" |");
        for (BackendChoice backend : BackendChoice.values()) {
          for (boolean listening : new boolean[] {false, true}) {
            String mark = cells.stream()
                .filter(e -> e.form() == form && e.layer() == layer && e.backend() == backend && e.listening() == listening)
                .map(e -> e.result() == Result.PASSED ? "✓" : e.result() == Result.FAILED ? "✗" : "–")
                .findFirst().orElse(" ");
            out.append(' ').append(mark).append(" |");
          }
        }
        out.append('\n');
      }
    }
  }

  /** The full table, one row per cell. */
  synchronized String table() {
    StringBuilder out = new StringBuilder("\n## Every cell\n\n| scenario | form | layer | backend | listener | result | reason |\n|---|---|---|---|---|---|---|\n");
    for (Entry entry : entries) {
      out.append("| ").append(entry.scenario().title).append(" | ").append(entry.form().title).append(" | ")
          .append(entry.layer().title).append(" | ").append(entry.backend().title).append(" | ")
          .append(entry.listening() ? "metrics listener" : "none").append(" | ")
          .append(entry.result().name().toLowerCase().replace('_', ' ')).append(" | ")
          .append(entry.reason() == null ? "" : entry.reason().replace("|", "\\|")).append(" |\n");
    }
    return out.toString();
  }

  private static String name(Entry entry) {
    return entry.scenario().title + " · " + entry.form().title + " · " + entry.layer().title + " · "
        + entry.backend().title + " · " + (entry.listening() ? "metrics listener" : "no listener");
  }

  void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException cannotWrite) {
      System.err.println("could not write " + file + ": " + cannotWrite);
    }
  }
}
