package dev.brace.processor;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;

/**
 * One error, anchored as precisely as it can be: the element, the annotation on it and the
 * attribute at fault, so an IDE underlines the attribute.
 *
 * @param element where the error is
 * @param mirror the annotation at fault, or null
 * @param value the attribute at fault, or null
 * @param text the tagged message, from {@link Message}
 */
record Problem(Element element, AnnotationMirror mirror, AnnotationValue value, String text) {}
