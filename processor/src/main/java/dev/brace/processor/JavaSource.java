package dev.brace.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;

/**
 * One generated source file, written line by line; its package line and imports are added when it
 * is done, once every class it names is known. Its layout is JavaPoet's, which wrote the wrappers
 * before it, so the output did not change; it replaced JavaPoet because the JIT compiled that
 * library anew in every javac, at about the CPU cost of all the processor's validation and model
 * building.
 *
 * <p>A class is imported and named by its simple name unless that simple name is already taken:
 * by the class being written, by a class of the same package the file names, by a type variable
 * in scope, or by another class imported before it (the first one named wins); those are written
 * qualified. {@code java.lang} is named without an import line.
 */
final class JavaSource {
  private static final int COLUMN_LIMIT = 100;
  private static final String INDENT = "  ";

  private final String packageName;
  private final String className;
  private final List<Line> lines = new ArrayList<>();
  /** The type variables in scope: the class's, then the method's being written. */
  private final Deque<List<String>> typeVariables = new ArrayDeque<>();
  /** The simple names of the member types the class inherits, which mean those types inside it. */
  private final Set<String> inheritedMemberTypes;
  private int indent;

  /** A line of code at its indentation; no code for a blank line. */
  private record Line(int indent, List<Object> parts) {}

  /**
   * @param inheritedMemberTypes the simple names of the member types the class inherits from what
   *     it implements: a class of such a simple name is always written qualified
   */
  JavaSource(String packageName, String className, List<TypeCode.Variable> classTypeVariables,
      Set<String> inheritedMemberTypes) {
    this.packageName = packageName;
    this.className = className;
    this.inheritedMemberTypes = Set.copyOf(inheritedMemberTypes);
    typeVariables.push(classTypeVariables.stream().map(TypeCode.Variable::name).toList());
  }

  /** Writes one line at the current indentation. */
  JavaSource line(String format, Object... arguments) {
    return line(Code.of(format, arguments));
  }

  JavaSource line(Code code) {
    List<Object> parts = new ArrayList<>();
    for (Object part : code.parts()) {
      // A class named like a type variable in scope, or like a member type the class inherits, can
      // only be written qualified: its simple name means that variable or member type here.
      parts.add(part instanceof ClassRef reference && isTaken(reference.topLevel().simpleName())
          ? reference.canonicalName() : part);
    }
    lines.add(new Line(indent, parts));
    return this;
  }

  JavaSource blankLine() {
    lines.add(new Line(0, List.of()));
    return this;
  }

  /** Writes the line as a statement, with its semicolon. */
  JavaSource statement(String format, Object... arguments) {
    return line(format + ";", arguments);
  }

  /** Writes the line with an opening brace, and indents what follows up to {@link #endBlock()}. */
  JavaSource beginBlock(String format, Object... arguments) {
    line(format + " {", arguments);
    return indent();
  }

  JavaSource endBlock() {
    return outdent().line("}");
  }

  JavaSource indent() {
    indent++;
    return this;
  }

  JavaSource outdent() {
    indent--;
    return this;
  }

  /** @return a method (or constructor, without a return type) to declare, then {@link Method#begin()} */
  Method method(String modifiers, String name) {
    return new Method(modifiers, name);
  }

  /**
   * A method's declaration. Where it would pass the column limit, its line breaks after the opening
   * parenthesis, at a space between parameters or in the {@code throws} clause (only the statements
   * of a declaration can be long enough to need it); the broken lines go on two indentations deeper.
   */
  final class Method {
    private final String modifiers;
    private final String name;
    private final List<Code> annotations = new ArrayList<>();
    private final List<TypeCode.Variable> variables = new ArrayList<>();
    private final List<Code> parameters = new ArrayList<>();
    private final List<Code> thrown = new ArrayList<>();
    private Code returnType;

    private Method(String modifiers, String name) {
      this.modifiers = modifiers;
      this.name = name;
    }

    Method annotation(String format, Object... arguments) {
      annotations.add(Code.of(format, arguments));
      return this;
    }

    Method typeVariables(List<TypeCode.Variable> declared) {
      variables.addAll(declared);
      return this;
    }

    Method returns(Object type) {
      returnType = Code.of("$T", type);
      return this;
    }

    Method parameter(Object type, String parameterName) {
      parameters.add(Code.of("$T $N", type, parameterName));
      return this;
    }

    Method throwing(Object type) {
      thrown.add(Code.of("$T", type));
      return this;
    }

    /** Writes the annotations and the declaration, and indents the body, up to {@link #endMethod()}. */
    void begin() {
      annotations.forEach(JavaSource.this::line);
      typeVariables.push(variables.stream().map(TypeCode.Variable::name).toList());
      List<Code> declaration = new ArrayList<>();
      declaration.add(Code.of(modifiers + " "));
      if (!variables.isEmpty()) {
        declaration.add(Code.of("$L ", TypeCode.declarations(variables)));
      }
      if (returnType != null) {
        declaration.add(Code.of("$L ", returnType));
      }
      declaration.add(Code.of("$N($Z$L)", name, Code.join(parameters, Code.of(",$W"))));
      for (int i = 0; i < thrown.size(); i++) {
        declaration.add(Code.of(i == 0 ? "$Wthrows$W$L" : ",$W$L", thrown.get(i)));
      }
      declaration.add(Code.of(" {"));
      line(Code.join(declaration, ""));
      indent();
    }
  }

  /** Ends the method {@link Method#begin()} began. */
  JavaSource endMethod() {
    endBlock();
    typeVariables.pop();
    return this;
  }

  private boolean isTaken(String simpleName) {
    return inheritedMemberTypes.contains(simpleName) || isTypeVariable(simpleName);
  }

  private boolean isTypeVariable(String name) {
    for (List<String> scope : typeVariables) {
      if (scope.contains(name)) {
        return true;
      }
    }
    return false;
  }

  /** Creates the file through the filer, on behalf of the elements it was written from. */
  void writeTo(Filer filer, Element... originatingElements) throws IOException {
    String name = packageName.isEmpty() ? className : packageName + "." + className;
    try (Writer out = filer.createSourceFile(name, originatingElements).openWriter()) {
      out.write(toString());
    }
  }

  @Override
  public String toString() {
    Map<String, ClassRef> imports = imports();
    StringBuilder out = new StringBuilder();
    if (!packageName.isEmpty()) {
      out.append("package ").append(packageName).append(";\n\n");
    }
    boolean anyImport = false;
    List<ClassRef> sorted = new ArrayList<>(imports.values());
    sorted.sort(Comparator.comparing(ClassRef::canonicalName));
    for (ClassRef imported : sorted) {
      if (!imported.packageName().equals("java.lang")) {
        out.append("import ").append(imported.canonicalName()).append(";\n");
        anyImport = true;
      }
    }
    if (anyImport) {
      out.append('\n');
    }
    for (Line line : lines) {
      if (!line.parts().isEmpty()) {
        write(line, imports, out);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * @return the imports by simple name: each top-level class of another package the file names,
   *     the first one of each simple name, unless the file names a class of its own package by it
   */
  private Map<String, ClassRef> imports() {
    Map<String, ClassRef> imports = new LinkedHashMap<>();
    Set<String> samePackage = new HashSet<>();
    for (Line line : lines) {
      for (Object part : line.parts()) {
        if (part instanceof ClassRef reference && !isThisClassOrInIt(reference)) {
          ClassRef top = reference.topLevel();
          if (top.simpleName().equals(className)) {
            continue; // written qualified: the simple name is the class being written
          }
          if (top.packageName().equals(packageName)) {
            samePackage.add(top.simpleName());
          } else if (!top.packageName().isEmpty()) {
            imports.putIfAbsent(top.simpleName(), top);
          }
        }
      }
    }
    imports.keySet().removeAll(samePackage);
    return imports;
  }

  private boolean isThisClassOrInIt(ClassRef reference) {
    return reference.packageName().equals(packageName) && reference.simpleNames().get(0).equals(className);
  }

  /**
   * @return the shortest name that means the class here: from the innermost class out, the first
   *     simple name that resolves to that class; else the name within its package when it is this
   *     file's package and nothing else took the top-level name; else the qualified name
   */
  private String name(ClassRef reference, Map<String, ClassRef> imports) {
    ClassRef resolved = null;
    int depth = reference.simpleNames().size() - 1;
    for (ClassRef each = reference; each != null; each = each.enclosing(), depth--) {
      resolved = each.simpleName().equals(className) ? ClassRef.of(packageName, className) : imports.get(each.simpleName());
      if (each.equals(resolved)) {
        return reference.simpleNamesFrom(depth);
      }
    }
    if (resolved == null && reference.packageName().equals(packageName)) {
      return reference.simpleNamesFrom(0);
    }
    return reference.canonicalName();
  }

  /** Writes a line, breaking it at its {@link Code.Break}s where it would pass the column limit. */
  private void write(Line line, Map<String, ClassRef> imports, StringBuilder out) {
    List<String> segments = new ArrayList<>();
    List<Code.Break> breaks = new ArrayList<>();
    StringBuilder segment = new StringBuilder();
    for (Object part : line.parts()) {
      if (part instanceof Code.Break lineBreak) {
        segments.add(segment.toString());
        segment.setLength(0);
        breaks.add(lineBreak);
      } else {
        segment.append(part instanceof ClassRef reference ? name(reference, imports) : part);
      }
    }
    segments.add(segment.toString());

    String indentation = INDENT.repeat(line.indent());
    String continuation = INDENT.repeat(line.indent() + 2);
    out.append(indentation).append(segments.get(0));
    int column = indentation.length() + segments.get(0).length();
    for (int i = 1; i < segments.size(); i++) {
      String next = segments.get(i);
      String space = breaks.get(i - 1) == Code.Break.SPACE ? " " : "";
      if (column + space.length() + next.length() > COLUMN_LIMIT) {
        out.append('\n').append(continuation).append(next);
        column = continuation.length() + next.length();
      } else {
        out.append(space).append(next);
        column += space.length() + next.length();
      }
    }
  }
}
