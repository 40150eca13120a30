package dev.brace.processor;

import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * The fallback method a call falls back to, fixed at compile time.
 *
 * @param methodName its name
 * @param isStatic called on the interface rather than on the delegate
 * @param returnsDeferred for an asynchronous or reactive call: whether it returns what the call
 *     returns (a future, a {@code Mono}, a publisher, a {@code Flow}; for a {@code suspend} call,
 *     whether it is a {@code suspend} function itself) rather than a plain value
 * @param returnsVoid whether it returns nothing (a Kotlin function returning {@code Unit})
 * @param declaringInterface the interface that declares it (the receiver of a static call)
 * @param failureType the type of its last, failure-receiving parameter when it has one; empty when
 *     it has none; the failure is cast to it unless it is {@code Throwable}
 */
record FallbackModel(
    String methodName,
    boolean isStatic,
    boolean returnsDeferred,
    boolean returnsVoid,
    TypeElement declaringInterface,
    Optional<TypeMirror> failureType) {}
