package dev.brace.processor;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Prints every message of the processor. An inherited method is validated once per interface that
 * inherits it, so the same problem is printed only once.
 */
final class Reporter {
  private final Messager messager;
  private final Set<List<Object>> printed = new HashSet<>();

  Reporter(Messager messager) {
    this.messager = messager;
  }

  void print(Report report) {
    report.problems().forEach(this::print);
  }

  void print(Problem problem) {
    List<Object> identity =
        java.util.Arrays.asList(
            String.valueOf(problem.element().getEnclosingElement()),
            String.valueOf(problem.element()),
            String.valueOf(problem.mirror()),
            problem.text());
    if (!printed.add(identity)) {
      return;
    }
    if (problem.value() != null) {
      messager.printMessage(
          Diagnostic.Kind.ERROR, problem.text(), problem.element(), problem.mirror(), problem.value());
    } else if (problem.mirror() != null) {
      messager.printMessage(Diagnostic.Kind.ERROR, problem.text(), problem.element(), problem.mirror());
    } else {
      messager.printMessage(Diagnostic.Kind.ERROR, problem.text(), problem.element());
    }
  }

  /**
   * Reports a bug in the processor itself, which must never escape {@code process()}.
   *
   * @param element where it happened, or null for a whole round
   * @param where the same, for the message
   * @param bug what was thrown
   */
  void bug(Element element, String where, Throwable bug) {
    StackTraceElement[] trace = bug.getStackTrace();
    String text = Message.INTERNAL_ERROR.format(where, bug + (trace.length == 0 ? "" : " at " + trace[0]));
    if (element == null) {
      messager.printMessage(Diagnostic.Kind.ERROR, text);
    } else {
      messager.printMessage(Diagnostic.Kind.ERROR, text, element);
    }
  }
}
