package dev.brace.processor;

import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;

/** The problems validators find. Validators add to it and never print; the processor prints it. */
final class Report {
  private final List<Problem> problems = new ArrayList<>();

  void error(Element element, Message message, Object... arguments) {
    problems.add(new Problem(element, null, null, message.format(arguments)));
  }

  void error(AnnotationSite site, String attribute, Message message, Object... arguments) {
    AnnotationValue value = attribute == null ? null : site.explicitValue(attribute);
    problems.add(new Problem(site.owner(), site.mirror(), value, message.format(arguments)));
  }

  void error(Element element, AnnotationMirror mirror, Message message, Object... arguments) {
    problems.add(new Problem(element, mirror, null, message.format(arguments)));
  }

  /** @return the number of problems so far, to tell whether a step added any */
  int size() {
    return problems.size();
  }

  List<Problem> problems() {
    return List.copyOf(problems);
  }
}
