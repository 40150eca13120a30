package dev.brace.processor;

import dev.brace.runtime.config.Kind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.util.Elements;

/**
 * One Brace annotation where it is written: on a method, or on an interface as the default of its
 * methods.
 *
 * @param kind which pattern
 * @param owner the method or interface carrying it
 * @param mirror the annotation
 * @param values every attribute, defaults included, in declaration order
 */
record AnnotationSite(
    Kind kind, Element owner, AnnotationMirror mirror, Map<String, AnnotationValue> values) {

  /** Reads the annotation of {@code kind} on {@code owner}, if any. */
  static AnnotationSite find(Kind kind, Element owner, Elements elements) {
    for (AnnotationMirror mirror : owner.getAnnotationMirrors()) {
      Element type = mirror.getAnnotationType().asElement();
      if (type.toString().equals(kind.annotation().getCanonicalName())) {
        Map<String, AnnotationValue> values = new LinkedHashMap<>();
        Map<? extends ExecutableElement, ? extends AnnotationValue> withDefaults =
            elements.getElementValuesWithDefaults(mirror);
        for (Element member : type.getEnclosedElements()) {
          if (member instanceof ExecutableElement attribute && withDefaults.containsKey(attribute)) {
            values.put(attribute.getSimpleName().toString(), withDefaults.get(attribute));
          }
        }
        return new AnnotationSite(kind, owner, mirror, Collections.unmodifiableMap(values));
      }
    }
    return null;
  }

  /** @return the attribute's value, its default when not written; null when missing */
  Object value(String attribute) {
    AnnotationValue value = values.get(attribute);
    return value == null ? null : value.getValue();
  }

  /** @return the written value of an attribute, for anchoring a message; null for a default */
  AnnotationValue explicitValue(String attribute) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        mirror.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(attribute)) {
        return entry.getValue();
      }
    }
    return null;
  }
}
