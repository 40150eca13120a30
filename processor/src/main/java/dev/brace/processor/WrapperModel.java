package dev.brace.processor;

import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * The wrapper to generate for one interface.
 *
 * @param iface the interface
 * @param packageName its package
 * @param className {@code Resilient} + its simple names joined by {@code _}
 * @param isPublic whether the interface can be seen outside its package
 * @param methods every abstract method, inherited ones included
 */
record WrapperModel(
    TypeElement iface, String packageName, String className, boolean isPublic, List<MethodModel> methods) {}
