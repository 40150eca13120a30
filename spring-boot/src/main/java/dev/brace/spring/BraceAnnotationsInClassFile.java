package dev.brace.spring;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.asm.AnnotationVisitor;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.SpringAsmInfo;

/**
 * Which of Brace's annotations an interface carries, read from its class file. Brace's annotations
 * are kept in the class file but not at run time (only the processor needs them), so reflection
 * cannot see them; the class file still says whether the interface was meant to be protected. Read
 * only for an interface that has no generated wrapper, once per interface.
 */
final class BraceAnnotationsInClassFile {
  /** Brace's annotations are the types of package {@code dev.brace} itself, none of its sub-packages. */
  private static final String PACKAGE_DESCRIPTOR = "Ldev/brace/";

  private BraceAnnotationsInClassFile() {}

  /**
   * @param type an interface
   * @return the simple names of the Brace annotations on it and on its methods ({@code @Retry},
   *     {@code @CircuitBreaker}), sorted; empty when it has none, or when its class file cannot be
   *     read (a native image keeps no class files)
   */
  static Set<String> of(Class<?> type) {
    Set<String> found = new TreeSet<>();
    ClassLoader loader = type.getClassLoader();
    if (loader == null) {
      return found;
    }
    try (InputStream classFile = loader.getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
      if (classFile == null) {
        return found;
      }
      new ClassReader(classFile).accept(new Collector(found),
          ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    } catch (IOException | IllegalArgumentException unreadable) {
      // A class file this ASM cannot parse says nothing either way; the bean is left as it was.
      found.clear();
    }
    return found;
  }

  /** @return {@code @Retry} for {@code Ldev/brace/Retry;}, or null for any other annotation */
  private static String braceAnnotation(String descriptor) {
    if (!descriptor.startsWith(PACKAGE_DESCRIPTOR) || !descriptor.endsWith(";")) {
      return null;
    }
    String simpleName = descriptor.substring(PACKAGE_DESCRIPTOR.length(), descriptor.length() - 1);
    return simpleName.indexOf('/') >= 0 ? null : "@" + simpleName.replace('$', '.');
  }

  private static final class Collector extends ClassVisitor {
    private final Set<String> found;

    Collector(Set<String> found) {
      super(SpringAsmInfo.ASM_VERSION);
      this.found = found;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      add(descriptor);
      return null;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {
        @Override
        public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
          add(annotation);
          return null;
        }
      };
    }

    private void add(String descriptor) {
      String annotation = braceAnnotation(descriptor);
      if (annotation != null) {
        found.add(annotation);
      }
    }
  }
}
