package dev.brace.processor;

import dev.brace.runtime.config.Idempotence;
import dev.brace.runtime.config.Kind;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks a call marked {@code @NotIdempotent} (on the method, or on an interface that has it: the
 * one declaring it, the one being wrapped, or one between them): no pattern may send it again once it may have reached the
 * dependency. A hedge is refused outright; a retry only when its {@code on} stays within the
 * failures that prove the request was never sent ({@link Idempotence#NEVER_SENT}, the runtime's
 * list) and it tests no result.
 */
final class IdempotenceValidator {
  /** The annotation's name: it is no pattern, so {@link Kind} does not list it. */
  static final String NOT_IDEMPOTENT = "dev.brace.NotIdempotent";

  private final Types types;
  private final Report report;
  private final List<TypeMirror> neverSent;

  IdempotenceValidator(Types types, Elements elements, Report report) {
    this.types = types;
    this.report = report;
    // A type missing from the class path (no brace-runtime) cannot be named in `on` either.
    this.neverSent = Idempotence.NEVER_SENT.stream()
        .map(type -> elements.getTypeElement(type.getCanonicalName()))
        .filter(Objects::nonNull)
        .map(element -> types.erasure(element.asType()))
        .collect(Collectors.toUnmodifiableList());
  }

  /**
   * @param method the call
   * @param wrapped the interface being wrapped, which may inherit the method
   * @return whether the method says {@code @NotIdempotent}, or an interface that has the method
   *     does: the wrapped one, the declaring one, or one it is inherited through
   */
  boolean isNotIdempotent(ExecutableElement method, TypeElement wrapped) {
    return marked(method) || markedOnTheWay(wrapped, (TypeElement) method.getEnclosingElement());
  }

  /** An interface marks every method it has, those it inherits from {@code declaring} included. */
  private boolean markedOnTheWay(TypeElement type, TypeElement declaring) {
    if (!types.isSubtype(types.erasure(type.asType()), types.erasure(declaring.asType()))) {
      return false;
    }
    if (marked(type)) {
      return true;
    }
    for (TypeMirror parent : type.getInterfaces()) {
      if (parent.getKind() == TypeKind.DECLARED && markedOnTheWay((TypeElement) types.asElement(parent), declaring)) {
        return true;
      }
    }
    return false;
  }

  static boolean marked(Element element) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (mirror.getAnnotationType().asElement().toString().equals(NOT_IDEMPOTENT)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reports every pattern of a call marked {@code @NotIdempotent} that could repeat it.
   *
   * @param patterns the call's patterns
   * @param callName the call, for messages
   */
  void check(List<PatternModel> patterns, String callName) {
    for (PatternModel pattern : patterns) {
      if (Idempotence.sendsCopies(pattern.kind())) {
        report.error(pattern.site(), null, Message.NOT_IDEMPOTENT_HEDGE, pattern.kind().annotation().getSimpleName(), callName);
      } else if (pattern.kind() == Kind.RETRY) {
        checkRetry(pattern, callName);
      }
    }
  }

  private void checkRetry(PatternModel retry, String callName) {
    String neverSentNames = Idempotence.describeNeverSent();
    retry.resultPredicate().ifPresent(predicate -> report.error(retry.site(), "onResult", Message.NOT_IDEMPOTENT_RETRY,
        callName, neverSentNames, "onResult = " + predicate + ".class retries a result, which the dependency did send"));
    for (Setting setting : retry.effective()) {
      if (setting.attribute().equals("on") && setting.value() instanceof Setting.Types on) {
        for (TypeMirror type : on.types()) {
          if (neverSent.stream().noneMatch(proof -> types.isSubtype(types.erasure(type), proof))) {
            boolean written = retry.site().explicitValue("on") != null;
            report.error(retry.site(), "on", Message.NOT_IDEMPOTENT_RETRY, callName, neverSentNames,
                "on " + (written ? "" : "(by default) ") + "includes " + type);
            return;
          }
        }
      }
    }
  }
}
