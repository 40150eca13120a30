package dev.brace.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The line between the runtime's API and its internals, checked on the published jars: no other
 * module reaches {@code dev.brace.runtime.internal} (brace-reactor drives calls through the driver
 * SPI, brace-micrometer implements the published metrics listener, the processor reads only
 * published constants), no public signature of the runtime outside {@code internal} names an
 * internal type, the SPI packages depend on nothing internal, and the thread's deadline slot (with
 * the context that carries it to other threads) does not depend on the {@code Deadline} that reads it. A dependency is any use the
 * bytecode records (an import, a fully qualified name, a call, a field or parameter type), so a
 * module cannot pass by spelling a name out.
 */
class InternalBoundaryIT {
  private static final String INTERNAL = "dev.brace.runtime.internal";

  @Test
  void noModuleButTheRuntimeUsesTheRuntimesInternals() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Map.Entry<String, String> module : PublishedArtifacts.MODULE_NAMES.entrySet()) {
      if (module.getKey().equals("brace-runtime")) {
        continue;
      }
      JavaClasses classes = classesOf(module.getKey());
      EvaluationResult result = ArchRuleDefinition.noClasses()
          .should().dependOnClassesThat().resideInAPackage(INTERNAL + "..")
          .allowEmptyShould(true)
          .evaluate(classes);
      for (String detail : result.getFailureReport().getDetails()) {
        violations.add(module.getKey() + ": " + detail);
      }
    }
    assertEquals(List.of(), violations,
        "only brace-runtime may use " + INTERNAL + "; publish what another module needs (an SPI, a public type)");
  }

  @Test
  void theRuntimesSpiDependsOnNothingInternal() throws IOException {
    EvaluationResult result = ArchRuleDefinition.noClasses()
        .that().resideInAPackage("dev.brace.runtime.spi..")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + "..")
        .evaluate(classesOf("brace-runtime"));
    assertEquals(List.of(), result.getFailureReport().getDetails(),
        "what a backend or a driver implements is published, and so is everything it names");
  }

  @Test
  void theThreadsDeadlineSlotAndTheContextCapturedFromItDoNotKnowTheDeadlineApi() throws IOException {
    // The API reads the slot; were the slot (or the context that copies it to other threads) to
    // make API objects too, each would need the other.
    EvaluationResult result = ArchRuleDefinition.noClasses()
        .that().resideInAPackage(INTERNAL + ".context")
        .should().dependOnClassesThat().haveFullyQualifiedName("dev.brace.runtime.Deadline")
        .evaluate(classesOf("brace-runtime"));
    assertEquals(List.of(), result.getFailureReport().getDetails());
  }

  @Test
  void noPublicSignatureOfTheRuntimeNamesAnInternalType() throws IOException {
    TreeSet<String> violations = new TreeSet<>();
    for (JavaClass type : classesOf("brace-runtime")) {
      if (!visibleOutside(type)) {
        continue;
      }
      checkType(type, type.getRawSuperclass().orElse(null), "extends", violations);
      for (JavaClass implemented : type.getRawInterfaces()) {
        checkType(type, implemented, "implements", violations);
      }
      for (JavaMember member : type.getMembers()) {
        if (!member.getModifiers().contains(JavaModifier.PUBLIC)
            && !(member.getModifiers().contains(JavaModifier.PROTECTED) && !type.getModifiers().contains(JavaModifier.FINAL))) {
          continue;
        }
        if (member instanceof JavaField field) {
          checkMember(field, field.getRawType(), violations);
        } else if (member instanceof JavaCodeUnit code) {
          checkMember(code, code.getRawReturnType(), violations);
          code.getRawParameterTypes().forEach(parameter -> checkMember(code, parameter, violations));
          code.getThrowsClause().getTypes().forEach(thrown -> checkMember(code, thrown, violations));
        }
      }
    }
    assertEquals(List.of(), List.copyOf(violations),
        "a public signature outside " + INTERNAL + " names an internal type: users could not call it without"
            + " the internals, and the internals could not change");
  }

  /** Public, outside internal, and (if nested) inside types that are too. */
  private static boolean visibleOutside(JavaClass type) {
    if (internal(type) || !type.getModifiers().contains(JavaModifier.PUBLIC)) {
      return false;
    }
    return type.getEnclosingClass().map(InternalBoundaryIT::visibleOutside).orElse(true);
  }

  private static void checkType(JavaClass type, JavaClass named, String how, TreeSet<String> violations) {
    if (named != null && internal(named)) {
      violations.add(type.getName() + " " + how + " " + named.getName());
    }
  }

  private static void checkMember(JavaMember member, JavaClass named, TreeSet<String> violations) {
    JavaClass element = named.isArray() ? named.getBaseComponentType() : named;
    if (internal(element)) {
      violations.add(member.getFullName() + " names " + element.getName());
    }
  }

  private static boolean internal(JavaClass type) {
    return type.getPackageName().equals(INTERNAL) || type.getPackageName().startsWith(INTERNAL + ".");
  }

  private static JavaClasses classesOf(String artifactId) throws IOException {
    try (JarFile jar = new JarFile(PublishedArtifacts.jar(artifactId).toFile())) {
      return new ClassFileImporter().importJar(jar);
    }
  }
}
